package io.vgpu.gateway.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.ClusterConfig;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.ServeCommand;
import io.vgpu.gateway.kube.KubeClientConfig;
import io.vgpu.gateway.kube.KubeClientFactory;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.store.StoreConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The real gateway, in-process, on a simulated cluster (DESIGN.md §5, {@code simulate}):
 * <ol>
 *   <li>a {@link SimulatedApiServer} on loopback, with a kubeconfig written for it;</li>
 *   <li>the synthetic nodes created in it as Node objects (device-plugin annotations, allocatable GPUs);</li>
 *   <li>the gateway started by {@link ServeCommand#start} (the same path as {@code serve}): its verticles on
 *       loopback over plain HTTP, an embedded single-member Hazelcast store (random cluster name, a free
 *       loopback port), and its informers reading that kubeconfig, so the nodes reach the store through the
 *       same informer path as real ones;</li>
 *   <li>a {@link SimulatedDevicePlugin} that reports each bound pod allocated and releases its node lock.</li>
 * </ol>
 * {@link #start} returns once {@code /readyz} answers 200 and every node is registered in the store.
 * {@link #close} stops everything, in reverse order.
 */
public final class SimulatedCluster implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 31;

    private final SimulatedApiServer apiServer;
    private final Path workDir;
    private final Path kubeconfig;
    private final KubernetesClient client;
    private final ServeCommand.Running gateway;
    private final SimulatedDevicePlugin devicePlugin;
    private final List<String> nodeNames;
    private final String bindAddress;

    /**
     * How to run the simulated cluster.
     *
     * @param nodePolicy        the gateway's default node policy
     * @param gpuPolicy         the gateway's default GPU policy
     * @param bindAddress       the gateway listeners' address (loopback unless serving others)
     * @param apiPort           the gateway's API port, 0 for any free one
     * @param metricsPort       the gateway's metrics port, 0 for any free one
     * @param apiServerPort     the simulated API server's port, 0 for any free one
     * @param devicePluginDelay how long the simulated device plugin takes to allocate a bound pod
     */
    public record Settings(String nodePolicy, String gpuPolicy, String bindAddress, int apiPort, int metricsPort,
                           int apiServerPort, Duration devicePluginDelay) {
    }

    private SimulatedCluster(SimulatedApiServer apiServer, Path workDir, Path kubeconfig, KubernetesClient client,
                             ServeCommand.Running gateway, SimulatedDevicePlugin devicePlugin, List<String> nodeNames,
                             String bindAddress) {
        this.apiServer = apiServer;
        this.workDir = workDir;
        this.kubeconfig = kubeconfig;
        this.client = client;
        this.gateway = gateway;
        this.devicePlugin = devicePlugin;
        this.nodeNames = List.copyOf(nodeNames);
        this.bindAddress = bindAddress;
    }

    /**
     * Starts the API server, seeds the nodes, starts the gateway and the device plugin, and waits until the
     * gateway is ready with every node registered.
     *
     * @throws IllegalStateException when something does not start in time (everything started is stopped)
     */
    public static SimulatedCluster start(Settings settings, List<SyntheticNode> nodes) {
        // Hazelcast logs through java.util.logging unless told otherwise (Main sets this too, for serve)
        if (System.getProperty("hazelcast.logging.type") == null) {
            System.setProperty("hazelcast.logging.type", "slf4j");
        }
        List<AutoCloseable> started = new ArrayList<>();
        try {
            SimulatedApiServer apiServer = SimulatedApiServer.start(settings.apiServerPort());
            started.add(apiServer);
            Path workDir = Files.createTempDirectory("vgpu-simulate-");
            Path kubeconfig = apiServer.writeKubeconfig(workDir.resolve("kubeconfig"));
            started.add(() -> deleteQuietly(workDir));
            KubernetesClient client = KubeClientFactory.create(new KubeClientConfig(kubeconfig.toString(), null, 0, 1,
                    Duration.ofSeconds(10), 1024, Duration.ofSeconds(1), 0), null);
            started.add(client);
            GatewayConfig config = gatewayConfig(settings);
            List<String> names = seed(client, nodes, config.nvidia().resourceCountName());
            ServeCommand.Running gateway = ServeCommand.start(config, clusterConfig(kubeconfig))
                    .toCompletionStage().toCompletableFuture().get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            started.add(() -> gateway.closeAndWait(Duration.ofSeconds(15)));
            SimulatedDevicePlugin devicePlugin = new SimulatedDevicePlugin(client, settings.devicePluginDelay());
            started.add(devicePlugin);
            devicePlugin.start();
            SimulatedCluster cluster = new SimulatedCluster(apiServer, workDir, kubeconfig, client, gateway,
                    devicePlugin, names, settings.bindAddress());
            cluster.awaitReady(names.size());
            return cluster;
        } catch (Exception | LinkageError e) {
            closeAll(started);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
                    ? e.getCause() : e;
            throw new IllegalStateException("the simulated cluster did not start: " + cause.getMessage(), cause);
        }
    }

    /** The simulated API server. */
    public SimulatedApiServer apiServer() {
        return apiServer;
    }

    /** The kubeconfig file of the simulated API server, in a working directory deleted on {@link #close}. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** A client of the simulated API server (the simulator's own, not the gateway's). */
    public KubernetesClient client() {
        return client;
    }

    /** The gateway's shared cluster state (read-only use: reports and readiness). */
    public ClusterState state() {
        return gateway.state();
    }

    /** The simulated node names, in order. */
    public List<String> nodeNames() {
        return nodeNames;
    }

    /** {@code http://<address>:<port>} of the gateway's API listener. */
    public String gatewayUrl() {
        return "http://" + bindAddress + ":" + gateway.apiPort();
    }

    /** The gateway's API host as clients on this machine reach it. */
    public String gatewayHost() {
        return "0.0.0.0".equals(bindAddress) ? "127.0.0.1" : bindAddress;
    }

    /** The gateway's API port. */
    public int gatewayPort() {
        return gateway.apiPort();
    }

    /** {@code http://<address>:<port>/metrics} of the gateway's metrics listener. */
    public String metricsUrl() {
        return "http://" + bindAddress + ":" + gateway.metricsPort() + "/metrics";
    }

    /** The simulated device plugin. */
    SimulatedDevicePlugin devicePlugin() {
        return devicePlugin;
    }

    /**
     * Waits until the device plugin has reported {@code pods} pods allocated since the start and has nothing
     * pending (every lock it took over released).
     *
     * @return false when it had not caught up after {@code timeout}
     */
    public boolean awaitDevicePlugin(long pods, Duration timeout) {
        return poll(timeout, () -> devicePlugin.allocated() >= pods && devicePlugin.idle());
    }

    /** Stops the device plugin, the gateway (draining, leaving the Hazelcast cluster), the client and the server. */
    @Override
    public void close() {
        closeAll(List.of(apiServer, () -> deleteQuietly(workDir), client,
                () -> gateway.closeAndWait(Duration.ofSeconds(15)), devicePlugin));
    }

    private void awaitReady(int nodes) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        URI readyz = URI.create("http://" + gatewayHost() + ":" + gateway.apiPort() + "/readyz");
        boolean ready = poll(START_TIMEOUT, () -> gateway.state().nodes().size() >= nodes && ready(http, readyz));
        if (!ready) {
            throw new IllegalStateException("the gateway was not ready with " + nodes + " nodes registered after "
                    + START_TIMEOUT.toSeconds() + " s (" + gateway.state().nodes().size() + " registered)");
        }
    }

    private static boolean ready(HttpClient http, URI readyz) {
        try {
            return http.send(HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean poll(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Creates the Node objects as the nodes' kubelets and device plugins would have left them. */
    private static List<String> seed(KubernetesClient client, List<SyntheticNode> nodes, String gpuResource) {
        List<String> names = new ArrayList<>(nodes.size());
        for (SyntheticNode n : nodes) {
            long virtualDevices = virtualDevices(n);
            Node node = client.getKubernetesSerialization().unmarshal(
                    Manifests.node(n, gpuResource, virtualDevices).toString(), Node.class);
            client.nodes().resource(node).create();
            names.add(n.name());
        }
        return names;
    }

    /** What the device plugin advertises to kubelet: {@code deviceSplitCount} virtual devices per GPU. */
    private static long virtualDevices(SyntheticNode node) {
        Decoded<List<GpuDevice>> devices = NodeRegisterCodec.decode(
                node.annotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER));
        return devices.isOk() ? devices.value().stream().mapToLong(GpuDevice::count).sum() : 0;
    }

    /** The gateway's settings, through the same {@code VGPU_*} reader as {@code serve}. */
    private static GatewayConfig gatewayConfig(Settings settings) {
        Map<String, String> env = new HashMap<>();
        env.put("VGPU_PLAIN_HTTP", "true");
        env.put("VGPU_BIND_ADDRESS", settings.bindAddress());
        env.put("VGPU_HTTP_PORT", Integer.toString(settings.apiPort()));
        env.put("VGPU_METRICS_PORT", Integer.toString(settings.metricsPort()));
        env.put("VGPU_NODE_SCHEDULER_POLICY", settings.nodePolicy());
        env.put("VGPU_GPU_SCHEDULER_POLICY", settings.gpuPolicy());
        env.put("VGPU_SHUTDOWN_TIMEOUT", "5s");
        env.put("POD_NAME", "simulate");
        return GatewayConfig.fromEnv(env);
    }

    /** One embedded member on loopback, a cluster name nobody else uses, no backups (there is no one to hold them). */
    private static ClusterConfig clusterConfig(Path kubeconfig) {
        StoreConfig store = new StoreConfig("vgpu-simulate-" + UUID.randomUUID(), List.of(), "127.0.0.1", freePort(),
                0, 0, PARTITIONS);
        return new ClusterConfig(true, kubeconfig, store, Duration.ofSeconds(25));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the working directory and the files in it (kubeconfig, examples). */
    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** Closes in reverse order of start; every close runs even if an earlier one fails. */
    private static void closeAll(List<AutoCloseable> started) {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
    }
}
