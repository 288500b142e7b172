package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system under test: the API server, the GPU nodes in it, and N gateway replicas (separate JVMs on loopback,
 * one Hazelcast cluster with a majority quorum and one backup, plain HTTP, a kubeconfig pointing at the API
 * server). Gives the driver and the checker what they read: the API client, each replica's
 * {@code /debug/state}, readiness.
 */
final class ChaosCluster implements AutoCloseable {

    static final String NAMESPACE = "chaos";
    static final String SCHEDULER = "hami-scheduler";
    /** How long a contended bind waits for the node lock ({@code VGPU_NODE_LOCK_WAIT} of every replica). */
    static final Duration NODE_LOCK_WAIT = Duration.ofSeconds(8);
    /** The nodes the load binds to (the idle ones only see abandoned filters). */
    static final String NODE_PREFIX = "chaos-node-";
    private static final Logger LOG = LoggerFactory.getLogger(ChaosCluster.class);
    /** Restarts of a replica that exited while the cluster formed, per wait ({@link #restartFailedStarts}). */
    private static final int START_RETRIES = 2;
    private static final String IDLE_PREFIX = "chaos-idle-";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    private static final SplittableRandom PORTS = new SplittableRandom();
    private static final Set<Integer> TAKEN = ConcurrentHashMap.newKeySet();

    private final ChaosSettings settings;
    private final ChaosApiServer api;
    private final KubernetesClient kube;
    private final List<GatewayReplica> replicas;
    private final List<String> nodeNames;
    private final List<String> idleNodeNames;
    private final Map<String, List<GpuDevice>> devices;
    private final GatewayHttp http = new GatewayHttp();
    private final AtomicLong failedStarts = new AtomicLong();

    private ChaosCluster(ChaosSettings settings, ChaosApiServer api, KubernetesClient kube,
                         List<GatewayReplica> replicas, Map<String, List<GpuDevice>> devices) {
        this.settings = settings;
        this.api = api;
        this.kube = kube;
        this.replicas = replicas;
        this.devices = devices;
        this.nodeNames = devices.keySet().stream().filter(n -> !n.startsWith(IDLE_PREFIX)).toList();
        this.idleNodeNames = devices.keySet().stream().filter(n -> n.startsWith(IDLE_PREFIX)).toList();
    }

    /** Starts the API server, creates the nodes, starts every replica and waits for one safe cluster. */
    static ChaosCluster start(ChaosSettings settings) {
        if (!Files.isRegularFile(settings.gatewayJar())) {
            throw new IllegalStateException("the gateway jar " + settings.gatewayJar() + " does not exist: build it "
                    + "first (./mvnw -B -pl gateway -am package -DskipTests, or run the reactor's verify)");
        }
        ChaosApiServer api = ChaosApiServer.start(settings.failBindingEvery());
        KubernetesClient kube = null;
        List<GatewayReplica> replicas = new ArrayList<>();
        try {
            Files.createDirectories(settings.workDir());
            Path kubeconfig = writeKubeconfig(settings.workDir().resolve("kubeconfig.yaml"), api.url());
            kube = new KubernetesClientBuilder().withConfig(api.config()).build();
            Map<String, List<GpuDevice>> devices = createNodes(kube, settings);
            replicas.addAll(replicas(settings, kubeconfig));
            ChaosCluster cluster = new ChaosCluster(settings, api, kube, replicas, devices);
            replicas.forEach(GatewayReplica::start);
            cluster.awaitFormed(replicas, Duration.ofSeconds(120));
            return cluster;
        } catch (IOException e) {
            stopAll(replicas, api, kube);
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            stopAll(replicas, api, kube);
            throw e;
        }
    }

    ChaosSettings settings() {
        return settings;
    }

    ChaosApiServer api() {
        return api;
    }

    KubernetesClient kube() {
        return kube;
    }

    List<GatewayReplica> replicas() {
        return replicas;
    }

    /** The nodes the load is scheduled on. */
    List<String> nodeNames() {
        return nodeNames;
    }

    /** The nodes only abandoned filters reach ({@link ChaosSettings#idleNodes()}). */
    List<String> idleNodeNames() {
        return idleNodeNames;
    }

    /**
     * The cards of every node (load and idle) as this harness created them: the capacity the checker holds charges
     * against, never what a replica's view says it is.
     */
    Map<String, List<GpuDevice>> devices() {
        return devices;
    }

    GatewayHttp http() {
        return http;
    }

    /** The replica's {@code /debug/state}, or empty when it does not answer. */
    Optional<JsonNode> debugState(GatewayReplica replica) {
        try {
            GatewayHttp.Reply reply = http.get(replica.metricsPort(), "/debug/state", PROBE_TIMEOUT);
            return reply.status() == 200 ? Optional.of(reply.json()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The replica's Prometheus scrape; empty when it does not answer. */
    Optional<String> scrape(GatewayReplica replica) {
        try {
            GatewayHttp.Reply reply = http.get(replica.metricsPort(), "/metrics", PROBE_TIMEOUT);
            return reply.status() == 200 ? Optional.of(reply.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The value of a counter in the replica's Prometheus scrape (sum over label sets); empty when unreachable. */
    Optional<Double> counter(GatewayReplica replica, String name) {
        Optional<String> scrape = scrape(replica);
        if (scrape.isEmpty()) {
            return Optional.empty();
        }
        try {
            double sum = 0;
            for (String line : scrape.get().split("\n")) {
                if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return Optional.of(sum);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Waits until every replica of {@code members} answers {@code /readyz} 200, sees exactly those members in a
     * safe cluster (every backup in sync) and has every node registered in its view.
     *
     * @return how long it took
     */
    Duration awaitFormed(Collection<GatewayReplica> members, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Set<GatewayReplica> pending = new HashSet<>(members);
        Map<GatewayReplica, Integer> restarts = new HashMap<>();
        while (true) {
            restartFailedStarts(pending, restarts);
            pending.removeIf(formedFor(members.size()));
            if (pending.isEmpty()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cluster of " + members.size() + " not formed and safe within "
                        + timeout + "; waiting for " + pending.stream().map(GatewayReplica::name).toList()
                        + " (logs in " + settings.workDir() + "); " + String.join("; ",
                        members.stream().map(this::describe).toList()));
            }
            sleep(100);
        }
    }

    /**
     * A replica that exited while the cluster forms gave up its start ({@code serve} exits when its listeners are
     * not up within 60 s, which a loaded 2-core machine can miss): it is started again, at most
     * {@link #START_RETRIES} times per wait, as an operator's restart policy would; a replica that keeps exiting
     * fails the run with its log. Each restart is logged, so a report's timings can be read with it.
     */
    private void restartFailedStarts(Set<GatewayReplica> pending, Map<GatewayReplica, Integer> restarts) {
        for (GatewayReplica replica : pending) {
            if (replica.alive()) {
                continue;
            }
            int done = restarts.getOrDefault(replica, 0);
            if (done >= START_RETRIES) {
                throw new IllegalStateException(replica.name() + " exited " + (done + 1) + " times while the "
                        + "cluster formed; see " + replica.log() + "; last log lines: "
                        + String.join(" | ", replica.lastNotableLogLines(6)));
            }
            restarts.put(replica, done + 1);
            failedStarts.incrementAndGet();
            LOG.warn("chaos: {} exited before it was ready (start {} of {}); starting it again", replica.name(),
                    done + 1, START_RETRIES + 1);
            replica.start();
        }
    }

    /** How many times a replica exited before it was ready and was started again ({@link #awaitFormed}). */
    long failedStarts() {
        return failedStarts.get();
    }

    /**
     * What a replica that did not come up reports, for the failure message (CI keeps only the test output): its
     * readiness answer, its view of the cluster and of the nodes, and the last warnings of its log.
     */
    String describe(GatewayReplica replica) {
        StringBuilder out = new StringBuilder(replica.name()).append(replica.alive() ? " [running]" : " [exited]");
        try {
            GatewayHttp.Reply ready = http.get(replica.apiPort(), "/readyz", PROBE_TIMEOUT);
            out.append(" readyz ").append(ready.status()).append(' ').append(ready.body().strip());
        } catch (IOException e) {
            out.append(" readyz unreachable (").append(e).append(')');
        }
        debugState(replica).ifPresent(state -> {
            JsonNode cluster = state.path("cluster");
            out.append(", members ").append(cluster.path("members").asInt()).append(", safe ")
                    .append(cluster.path("clusterSafe").asBoolean()).append(", nodes registered in its view ")
                    .append(viewed(state).size()).append('/').append(devices.size());
        });
        out.append(", log tail: ").append(String.join(" | ", replica.lastNotableLogLines(6)));
        return out.toString();
    }

    private Predicate<GatewayReplica> formedFor(int size) {
        return replica -> {
            if (!replica.alive()) {
                throw new IllegalStateException(replica.name() + " exited; see " + replica.log());
            }
            try {
                if (http.get(replica.apiPort(), "/readyz", PROBE_TIMEOUT).status() != 200) {
                    return false;
                }
            } catch (IOException e) {
                return false;
            }
            Optional<JsonNode> state = debugState(replica);
            if (state.isEmpty()) {
                return false;
            }
            JsonNode cluster = state.get().path("cluster");
            if (cluster.path("members").asInt() != size || !cluster.path("clusterSafe").asBoolean()) {
                return false;
            }
            return viewed(state.get()).containsAll(devices.keySet());
        };
    }

    /**
     * The registered nodes a replica's view holds ({@code /debug/state}'s {@code view}: every node's summary), which
     * its {@code /filter} scores; its {@code nodes} hold only the nodes whose keys it owns.
     */
    private static Set<String> viewed(JsonNode state) {
        Set<String> names = new HashSet<>();
        state.path("view").forEach(n -> names.add(n.path("name").asText()));
        return names;
    }

    /** kill -9 every replica (the end of a run: nothing left to drain). */
    void killAll() {
        replicas.forEach(GatewayReplica::kill);
    }

    /** Stops every replica gracefully (in parallel), then the client and the API server. */
    @Override
    public void close() {
        stopAll(replicas, api, kube);
    }

    private static void stopAll(List<GatewayReplica> replicas, ChaosApiServer api, KubernetesClient kube) {
        List<Thread> stopping = new ArrayList<>();
        for (GatewayReplica r : replicas) {
            Thread t = new Thread(() -> r.stop(20), "stop-" + r.name());
            t.start();
            stopping.add(t);
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (kube != null) {
            kube.close();
        }
        api.close();
    }

    private static Map<String, List<GpuDevice>> createNodes(KubernetesClient kube, ChaosSettings s) {
        Map<String, List<GpuDevice>> out = new LinkedHashMap<>();
        for (int n = 0; n < s.nodes() + s.idleNodes(); n++) {
            String name = n < s.nodes() ? NODE_PREFIX + n : IDLE_PREFIX + (n - s.nodes());
            List<GpuDevice> cards = new ArrayList<>();
            for (int g = 0; g < s.gpusPerNode(); g++) {
                cards.add(new GpuDevice("GPU-" + name + "-" + g, g, s.gpuSlots(), s.gpuMemMiB(), 100,
                        "NVIDIA-Tesla V100-PCIE-32GB", 0, "hami-core", List.of(), true));
            }
            kube.nodes().resource(gpuNode(name, cards)).create();
            out.put(name, List.copyOf(cards));
        }
        return out;
    }

    /** A GPU node as HAMi's device plugin registers it: the register annotation and allocatable GPUs. */
    static Node gpuNode(String name, List<GpuDevice> cards) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .addToAnnotations(HamiAnnotations.NODE_NVIDIA_REGISTER, NodeRegisterCodec.encode(cards))
                .endMetadata().withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(cards.size())))
                .addToAllocatable("cpu", new Quantity("64")).endStatus().build();
    }

    private static List<GatewayReplica> replicas(ChaosSettings s, Path kubeconfig) {
        List<int[]> ports = new ArrayList<>();
        List<String> members = new ArrayList<>();
        for (int i = 0; i < s.replicas(); i++) {
            int[] p = {freePort(), freePort(), freePort()};
            ports.add(p);
            members.add("127.0.0.1:" + p[2]);
        }
        String hazelcastCluster = "vgpu-chaos-" + UUID.randomUUID();
        List<GatewayReplica> out = new ArrayList<>();
        for (int i = 0; i < s.replicas(); i++) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("VGPU_PLAIN_HTTP", "true");
            env.put("VGPU_BIND_ADDRESS", "127.0.0.1");
            // the invariant checker reads every replica's view; off by default, and on loopback only here
            env.put("VGPU_DEBUG_STATE", "metrics");
            env.put("VGPU_KUBECONFIG", kubeconfig.toString());
            env.put("VGPU_SCHEDULER_NAMES", SCHEDULER);
            env.put("VGPU_HZ_CLUSTER_NAME", hazelcastCluster);
            if (s.replicas() > 1) {
                env.put("VGPU_HZ_MEMBERS", String.join(",", members));
            }
            env.put("VGPU_HZ_BACKUP_COUNT", "1");
            env.put("VGPU_HZ_QUORUM", Integer.toString(s.quorum()));
            env.put("VGPU_RESERVATION_TTL", seconds(s.reservationTtl()));
            env.put("VGPU_NODE_LOCK_TIMEOUT", seconds(s.nodeLockTimeout()));
            env.put("VGPU_NODE_LOCK_WAIT", seconds(NODE_LOCK_WAIT));
            env.put("VGPU_SHUTDOWN_TIMEOUT", "2s");
            boolean stale = i == s.staleReplica();
            String name = "replica-" + i + (stale ? "-stale" : "");
            out.add(new GatewayReplica(name, ports.get(i), s.gatewayJar(), s.jvmOptions(),
                    stale ? s.informerDelay() : Duration.ZERO, env, s.workDir()));
        }
        return out;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private static Path writeKubeconfig(Path file, String server) throws IOException {
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: chaos
                  cluster:
                    server: %s
                contexts:
                - name: chaos
                  context:
                    cluster: chaos
                    user: chaos
                    namespace: default
                current-context: chaos
                users:
                - name: chaos
                  user: {}
                """.formatted(server));
        return file;
    }

    /**
     * A free port below Linux's ephemeral range (32768 and up): the replicas' outgoing connections take ephemeral
     * ports, and one of them must never grab a port a replica restarts on.
     */
    private static int freePort() {
        for (int tries = 0; tries < 1_000; tries++) {
            int port = 20_000 + PORTS.nextInt(12_000);
            if (!TAKEN.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port)) {
                socket.setReuseAddress(true);
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new UncheckedIOException(new IOException("no free port between 20000 and 32000"));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
