package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.ClusterConfig;
import io.vgpu.gateway.GatewayConfig;
import io.vgpu.gateway.GatewayAssembly;
import io.vgpu.gateway.RunningGateway;
import io.vgpu.gateway.config.ConfigurationException;
import io.vgpu.gateway.kube.KubeClientConfig;
import io.vgpu.gateway.kube.KubeClientFactory;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.store.StoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The real gateway, in-process, on a simulated cluster (DESIGN.md §5, {@code simulate}):
 * <ol>
 *   <li>a {@link SimulatedApiServer} on loopback, with a kubeconfig written for it;</li>
 *   <li>the synthetic nodes created in it as Node objects (device-plugin annotations, allocatable GPUs);</li>
 *   <li>the gateway started by {@link io.vgpu.gateway.GatewayAssembly#start} (the same path as {@code serve}): its verticles on
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
    private static final Duration CLOSE_STEP_TIMEOUT = Duration.ofSeconds(20);
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedCluster.class);

    private final SimulatedApiServer apiServer;
    private final Path workDir;
    private final Path kubeconfig;
    private final KubernetesClient client;
    private final RunningGateway gateway;
    private final SimulatedDevicePlugin devicePlugin;
    private final List<String> nodeNames;
    private final String bindAddress;
    private final String schedulerName;

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
     * @param gatewayEnv        more {@code VGPU_*} settings of the gateway, only keys of {@link #LOCAL_KEYS}
     * @param preload           Pods (stored with their own UIDs), Nodes and ResourceQuotas put into the API server
     *                          before the gateway starts, e.g. to replay a recorded kube-scheduler session
     */
    public record Settings(String nodePolicy, String gpuPolicy, String bindAddress, int apiPort, int metricsPort,
                           int apiServerPort, Duration devicePluginDelay, Map<String, String> gatewayEnv,
                           List<HasMetadata> preload) {

        /** Copies; refuses settings the simulated cluster controls itself. */
        public Settings {
            gatewayEnv = Map.copyOf(gatewayEnv);
            preload = List.copyOf(preload);
            for (HasMetadata object : preload) {
                if (!(object instanceof Pod) && !(object instanceof Node) && !(object instanceof ResourceQuota)) {
                    throw new IllegalArgumentException("only Pods, Nodes and ResourceQuotas are preloaded, not "
                            + object.getKind());
                }
            }
            for (String key : gatewayEnv.keySet()) {
                if (!LOCAL_KEYS.contains(key)) {
                    throw new IllegalArgumentException(key + " is not a setting simulate passes on (those are "
                            + String.join(", ", LOCAL_KEYS) + ")");
                }
            }
        }

        /** The gateway's own settings only, no preloaded pods. */
        public Settings(String nodePolicy, String gpuPolicy, String bindAddress, int apiPort, int metricsPort,
                        int apiServerPort, Duration devicePluginDelay) {
            this(nodePolicy, gpuPolicy, bindAddress, apiPort, metricsPort, apiServerPort, devicePluginDelay, Map.of(),
                    List.of());
        }
    }

    /**
     * The gateway settings that mean the same in the simulated cluster as in a real one, and that {@code simulate}
     * therefore passes on from its environment. The others are the simulator's own (plain HTTP on loopback, the
     * ports, the kubeconfig of the simulated API server, one embedded Hazelcast member) or come from its options
     * ({@code --node-policy}, {@code --gpu-policy}).
     */
    public static final List<String> LOCAL_KEYS = List.of(GatewayConfig.MAX_IN_FLIGHT.name(),
            GatewayConfig.SCHEDULER_NAMES.name(), GatewayConfig.FORCE_OVERWRITE_DEFAULT_SCHEDULER.name(),
            GatewayConfig.NODE_LOCK_TIMEOUT.name(), GatewayConfig.NODE_LOCK_WAIT.name(),
            GatewayConfig.NODE_LABEL_SELECTOR.name(), GatewayConfig.KUBE_QPS.name(), GatewayConfig.KUBE_BURST.name(),
            GatewayConfig.DEVICE_CONFIG_FILE.name(), GatewayConfig.WEBHOOK_MAX_BODY_BYTES.name(),
            GatewayConfig.WEBHOOK_FAILURE_POLICY.name(), GatewayConfig.SHUTDOWN_TIMEOUT.name(),
            GatewayConfig.DEBUG_STATE.name(), ClusterConfig.RESERVATION_TTL.name());

    private SimulatedCluster(SimulatedApiServer apiServer, Path workDir, Path kubeconfig, KubernetesClient client,
                             RunningGateway gateway, SimulatedDevicePlugin devicePlugin, List<String> nodeNames,
                             String bindAddress, String schedulerName) {
        this.apiServer = apiServer;
        this.workDir = workDir;
        this.kubeconfig = kubeconfig;
        this.client = client;
        this.gateway = gateway;
        this.devicePlugin = devicePlugin;
        this.nodeNames = List.copyOf(nodeNames);
        this.bindAddress = bindAddress;
        this.schedulerName = schedulerName;
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
            List<String> preloadedNodes = preload(apiServer, client, settings.preload());
            RunningGateway gateway = GatewayAssembly.start(config, clusterConfig(settings, kubeconfig))
                    .toCompletionStage().toCompletableFuture().get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            started.add(() -> gateway.closeAndWait(Duration.ofSeconds(15)));
            SimulatedDevicePlugin devicePlugin = new SimulatedDevicePlugin(client, settings.devicePluginDelay());
            started.add(devicePlugin);
            devicePlugin.start();
            List<String> all = new ArrayList<>(names);
            all.addAll(preloadedNodes);
            SimulatedCluster cluster = new SimulatedCluster(apiServer, workDir, kubeconfig, client, gateway,
                    devicePlugin, all, settings.bindAddress(), config.schedulerNames().get(0));
            cluster.awaitReady(names.size());
            return cluster;
        } catch (Exception | LinkageError e) {
            closeAll(started);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof ExecutionException && e.getCause() != null
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

    /** The scheduler name the gateway's webhook gives GPU pods (kube-scheduler would schedule those). */
    public String schedulerName() {
        return schedulerName;
    }

    /** The simulated node names, in order, then the preloaded Nodes' names. */
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

    /** Stores the preloaded objects: Nodes as they are, Pods with their own UIDs; returns the Nodes' names. */
    private static List<String> preload(SimulatedApiServer apiServer, KubernetesClient client,
                                        List<HasMetadata> objects) {
        List<String> nodes = new ArrayList<>();
        for (HasMetadata object : objects) {
            if (object instanceof Node node) {
                node.getMetadata().setResourceVersion(null);
                client.nodes().resource(node).create();
                nodes.add(node.getMetadata().getName());
            } else if (object instanceof ResourceQuota quota) {
                client.resourceQuotas().resource(quota).create();
            } else {
                apiServer.preload((Pod) object);
            }
        }
        return nodes;
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

    /**
     * The gateway's settings, through the same {@code VGPU_*} reader as {@code serve}.
     *
     * @throws io.vgpu.gateway.config.ConfigurationException when a passed-on setting is invalid
     */
    static GatewayConfig gatewayConfig(Settings settings) {
        Map<String, String> env = new HashMap<>();
        env.put("VGPU_PLAIN_HTTP", "true");
        env.put("VGPU_BIND_ADDRESS", settings.bindAddress());
        env.put("VGPU_HTTP_PORT", Integer.toString(settings.apiPort()));
        env.put("VGPU_METRICS_PORT", Integer.toString(settings.metricsPort()));
        env.put("VGPU_NODE_SCHEDULER_POLICY", settings.nodePolicy());
        env.put("VGPU_GPU_SCHEDULER_POLICY", settings.gpuPolicy());
        env.put("VGPU_SHUTDOWN_TIMEOUT", "5s");
        env.put("POD_NAME", "simulate");
        env.putAll(settings.gatewayEnv());
        env.remove(ClusterConfig.RESERVATION_TTL.name());
        return GatewayConfig.fromEnv(env);
    }

    /** {@code VGPU_RESERVATION_TTL} as passed on, else the gateway's default. */
    static Duration reservationTtl(Settings settings) {
        String ttl = settings.gatewayEnv().get(ClusterConfig.RESERVATION_TTL.name());
        try {
            return ClusterConfig.RESERVATION_TTL.parser().parse(ttl == null
                    ? ClusterConfig.RESERVATION_TTL.defaultValue() : ttl.trim());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(List.of(ClusterConfig.RESERVATION_TTL.name() + "=\"" + ttl + "\": "
                    + e.getMessage()));
        }
    }

    /** One embedded member on loopback, a cluster name nobody else uses, no backups (there is no one to hold them). */
    private static ClusterConfig clusterConfig(Settings settings, Path kubeconfig) {
        StoreConfig store = new StoreConfig("vgpu-simulate-" + UUID.randomUUID(), List.of(), "127.0.0.1", freePort(),
                0, 0, PARTITIONS);
        return new ClusterConfig(true, kubeconfig, store, reservationTtl(settings));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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

    /**
     * Closes in reverse order of start; every close runs even if an earlier one fails or hangs (each gets
     * {@link #CLOSE_STEP_TIMEOUT} on a daemon thread, so a stuck step cannot keep the JVM from exiting).
     */
    private static void closeAll(List<AutoCloseable> started) {
        for (int i = started.size() - 1; i >= 0; i--) {
            AutoCloseable step = started.get(i);
            Thread closer = new Thread(() -> {
                try {
                    step.close();
                } catch (Exception e) {
                    LOG.warn("simulate: a part did not stop cleanly: {}", e.toString());
                }
            }, "vgpu-simulate-close");
            closer.setDaemon(true);
            closer.start();
            try {
                closer.join(CLOSE_STEP_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (closer.isAlive()) {
                LOG.warn("simulate: a part did not stop within {} s; leaving it", CLOSE_STEP_TIMEOUT.toSeconds());
            }
        }
    }
}
