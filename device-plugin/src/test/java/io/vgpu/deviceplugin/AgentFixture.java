package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.config.NodeFeatures;
import io.vgpu.deviceplugin.devices.DeviceSource;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.testsupport.Eventually;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One node agent, started by {@link Main#start} exactly as on a node, against the fabric8 CRUD mock
 * API server, a {@link FakeKubelet} on a real Unix socket, and a temporary host root.
 */
final class AgentFixture implements AutoCloseable {

    static final String DEVICE_CONFIG = """
            nvidia:
              resourceCountName: nvidia.com/gpu
              deviceSplitCount: 4
              deviceMemoryScaling: 1
              deviceCoreScaling: 1
              libCudaLogLevel: 1
              gpuCorePolicy: default      # a scheduler key: ignored by the plugin
            """;

    /** The HAMi chart's default per-node ConfigMap: one example entry for some other node. */
    static final String NODE_CONFIG = """
            {"nodeconfig":[{"name":"m5-cloudinfra-online02","devicememoryscaling":1.8,"devicesplitcount":10,
              "migstrategy":"none","filterdevices":{"uuid":[],"index":[]}}]}
            """;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Path dir;
    final Path kubeletDir;
    final Path hostRoot;
    final String node;
    final KubernetesClient client;
    final Vertx vertx = Vertx.vertx();
    final DevicePluginConfig config;
    final NodeFeatures features;
    FakeKubelet kubelet;
    NodeAgent agent;

    private AgentFixture(Path dir, String node, KubernetesClient client, Map<String, String> extraEnv) throws Exception {
        this.dir = dir;
        this.node = node;
        this.client = client;
        this.kubeletDir = Files.createDirectories(dir.resolve("device-plugins"));
        this.hostRoot = Files.createDirectories(dir.resolve("host"));
        Files.writeString(dir.resolve("device-config.yaml"), DEVICE_CONFIG);
        Files.writeString(dir.resolve("config.json"), NODE_CONFIG);
        Map<String, String> env = new HashMap<>();
        env.put("VGPU_NODE_NAME", node);
        env.put("VGPU_KUBELET_DIR", kubeletDir.toString());
        env.put("VGPU_HOST_ROOT", hostRoot.toString());
        env.put("HOOK_PATH", "/usr/local");
        env.put("VGPU_DEVICE_CONFIG_FILE", dir.resolve("device-config.yaml").toString());
        env.put("VGPU_NODE_CONFIG_FILE", dir.resolve("config.json").toString());
        env.put("VGPU_DEVICE_SOURCE", "fake");
        env.put("VGPU_FAKE_GPUS_FILE", dir.resolve("gpus.yaml").toString());
        env.put("VGPU_REGISTER_INTERVAL", "300ms");
        env.put("VGPU_REGISTER_RETRY", "200ms");
        env.put("VGPU_XID_POLL", "100ms");
        // the monitor is off unless a test turns it on (MonitorWiringTest): its informers need a mock API server
        // that knows spec.nodeName and one server per test (testing.NodeFieldApiServer); when on, it runs on a
        // free port of the loopback and ticks fast
        env.put("VGPU_MONITOR_ENABLED", "false");
        env.put("VGPU_METRICS_BIND_ADDRESS", "127.0.0.1");
        env.put("VGPU_METRICS_PORT", Integer.toString(freePort()));
        env.put("VGPU_MONITOR_SCAN_INTERVAL", "100ms");
        // DRA mode's kubelet plugin: sockets, checkpoint and CDI specs under the test's directory, never the host's
        env.put("VGPU_DRA_REGISTRY_DIR", dir.resolve("plugins_registry").toString());
        env.put("VGPU_DRA_PLUGIN_DIR", dir.resolve("plugins/gpu.vgpu.io").toString());
        env.put("VGPU_DRA_CDI_DIR", dir.resolve("cdi").toString());
        env.put("VGPU_DRA_STATIC_CDI_DIRS", dir.resolve("static-cdi").toString());
        env.putAll(extraEnv);
        this.config = DevicePluginConfig.fromEnv(env);
        this.features = NodeFeatures.fromEnv(env);
    }

    /** Creates the Node and starts the fake kubelet; the agent is not started yet. */
    static AgentFixture prepare(Path dir, String node, KubernetesClient client, Map<String, String> env) throws Exception {
        AgentFixture fx = new AgentFixture(dir, node, client, env);
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
        fx.kubelet = FakeKubelet.start(fx.config.kubeletSocket());
        return fx;
    }

    /**
     * The agent against an API server that never answers (nothing is created there): the register loop
     * and the monitor's pod caches keep retrying.
     */
    static AgentFixture startWithoutApiServer(Path dir, String node, KubernetesClient unreachable, DeviceSource source,
                                              Map<String, String> env) throws Exception {
        AgentFixture fx = new AgentFixture(dir, node, unreachable, env);
        fx.kubelet = FakeKubelet.start(fx.config.kubeletSocket());
        fx.agent = fx.startAgent(source).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return fx;
    }

    /** {@link #prepare}, then the agent over {@code source}. */
    static AgentFixture start(Path dir, String node, KubernetesClient client, DeviceSource source, Map<String, String> env)
            throws Exception {
        AgentFixture fx = prepare(dir, node, client, env);
        fx.agent = fx.startAgent(source).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return fx;
    }

    /**
     * The node with these labels and annotations, fake GPUs from {@code gpus}, then the agent: how the DRA
     * tests start a node in a chosen mode.
     */
    static AgentFixture startNode(Path dir, String node, KubernetesClient client, Map<String, String> labels,
                                  Map<String, String> annotations, Map<String, String> env, String gpus) throws Exception {
        Files.writeString(dir.resolve("gpus.yaml"), gpus);
        AgentFixture fx = prepare(dir, node, client, env);
        client.nodes().withName(node).edit(n -> {
            n.getMetadata().getLabels().putAll(labels);
            n.getMetadata().getAnnotations().putAll(annotations);
            return n;
        });
        fx.agent = fx.startAgent(new FakeGpuSource(dir.resolve("gpus.yaml"))).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        return fx;
    }

    /** Starts the agent exactly as {@link Main#main} does after building the client and the source. */
    Future<NodeAgent> startAgent(DeviceSource source) {
        return Main.start(vertx, config, features, client, source);
    }

    /** The GPU description used by most tests: two A100s on NUMA 0 and 1. */
    static String twoGpus() {
        return """
                gpus:
                  - uuid: GPU-11111111-2222-3333-4444-000000000000
                    name: NVIDIA A100-SXM4-40GB
                    memoryMiB: 40960
                    numa: 0
                  - uuid: GPU-11111111-2222-3333-4444-000000000001
                    name: NVIDIA A100-SXM4-40GB
                    memoryMiB: 40960
                    numa: 1
                """;
    }

    /** The plugin's socket. */
    Path pluginSocket() {
        return config.pluginSocket();
    }

    /** {@code <host root>/usr/local/vgpu/containers}: where the plugin creates and the monitor scans cache directories. */
    Path containersDir() {
        return hostRoot.resolve("usr/local/vgpu/containers");
    }

    /** GET {@code /metrics} of the monitor: the status code and the body. */
    HttpResponse<String> scrape() throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + config.metricsPort() + "/metrics"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A TCP port that was free a moment ago. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    Map<String, String> nodeAnnotations() {
        var n = client.nodes().withName(node).get();
        return n.getMetadata().getAnnotations() == null ? Map.of() : n.getMetadata().getAnnotations();
    }

    /**
     * The node lock value, null when absent. (The CRUD mock keeps a key that a merge patch set to
     * null, with a null value; a real API server removes it. Both read as "no lock".)
     */
    String lock() {
        return nodeAnnotations().get("hami.io/mutex.lock");
    }

    /** Whether {@code condition} holds within {@code timeout} (test-support's bounded {@link Eventually}). */
    static boolean eventually(Duration timeout, BooleanSupplier condition) {
        try {
            Eventually.within(timeout, "condition", condition);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    @Override
    public void close() throws Exception {
        if (agent != null) {
            agent.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
        if (kubelet != null) {
            kubelet.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
