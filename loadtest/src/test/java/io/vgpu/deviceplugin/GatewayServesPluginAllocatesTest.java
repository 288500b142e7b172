package io.vgpu.deviceplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.NvLink;
import io.vgpu.hamicore.Nvml;
import io.vgpu.loadtest.chaos.ChaosApiServer;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.MigAllocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15's end to end, all real parts: the shipped gateway ({@code java -jar vgpu-gateway-all.jar serve}, one
 * Hazelcast member, plain HTTP) and our device plugin ({@link Main#start} over {@link FakeNvml}) share the fabric8
 * CRUD mock ({@link ChaosApiServer}: it also serves the binding subresource). The plugin registers its node; the
 * test plays kube-scheduler, POSTing ExtenderArgs to the gateway's {@code /filter} and {@code /bind} over HTTP; the
 * gateway reserves, locks the node, patches the pod and binds it; the fake kubelet then calls {@code Allocate} over
 * the plugin's Unix socket and gets exactly what the gateway chose: a dynamic-MIG instance at the reserved
 * placement, and the NVLinked GPU pair for a {@code topology-aware} pod. A pod carrying the stock HAMi scheduler's
 * recorded annotations for the same pair is answered exactly as the gateway's pod.
 */
@Timeout(180)
class GatewayServesPluginAllocatesTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String A100 = "NVIDIA A100-SXM4-40GB";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Kept after the run (the temporary directories are not): what explains a failure on the gateway's side. */
    private static final Path LOG = Path.of("target", "gateway-plugin-e2e.log");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    static Path shared;
    private static ChaosApiServer api;
    private static KubernetesClient client;
    private static Process gateway;
    private static int gatewayPort;

    @TempDir
    Path dir;
    private AgentFixture fx;

    @BeforeAll
    static void startGateway() throws Exception {
        Path jar = Path.of(System.getProperty("vgpu.gateway.jar", "../gateway/target/vgpu-gateway-all.jar"));
        assertThat(jar).as("the runnable gateway jar; build it first: ./mvnw -B -pl gateway -am package -DskipTests")
                .isRegularFile();
        api = ChaosApiServer.start();
        client = new KubernetesClientBuilder().withConfig(api.config()).build();
        Path kubeconfig = Files.writeString(shared.resolve("kubeconfig.yaml"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context: {cluster: mock, user: mock, namespace: default}
                current-context: mock
                users:
                - name: mock
                  user: {}
                """.formatted(api.url()));
        gatewayPort = AgentFixture.freePort();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-jar", jar.toAbsolutePath().toString(), "serve")
                .redirectErrorStream(true).redirectOutput(LOG.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("VGPU_"));
        env.put("VGPU_PLAIN_HTTP", "true");
        env.put("VGPU_BIND_ADDRESS", "127.0.0.1");
        env.put("VGPU_HTTP_PORT", Integer.toString(gatewayPort));
        env.put("VGPU_METRICS_PORT", Integer.toString(AgentFixture.freePort()));
        env.put("VGPU_HZ_PORT", Integer.toString(AgentFixture.freePort()));
        env.put("VGPU_HZ_CLUSTER_NAME", "node-gw-" + UUID.randomUUID());
        env.put("VGPU_HZ_BACKUP_COUNT", "0");
        env.put("VGPU_KUBECONFIG", kubeconfig.toString());
        env.put("VGPU_SHUTDOWN_TIMEOUT", "1s");
        env.put("VGPU_NODE_LOCK_WAIT", "8s");
        env.put("POD_NAME", "node-gw-replica");
        gateway = builder.start();
        assertThat(eventually(Duration.ofSeconds(90), () -> gateway.isAlive() && readyz() == 200))
                .as("the gateway answers /readyz 200 (log: %s)", LOG.toAbsolutePath()).isTrue();
    }

    @AfterAll
    static void stopGateway() throws Exception {
        if (gateway != null) {
            gateway.destroy();
            if (!gateway.waitFor(30, TimeUnit.SECONDS)) {
                gateway.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (client != null) {
            client.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @AfterEach
    void stopAgent() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void aMigPodGetsTheInstanceTheGatewayReserved() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-a100a100-0000-4000-8000-0000000000a0", A100, 40L << 30, 0, "00000000:3B:00.0", 0, false),
                new GpuInfo(1, "GPU-a100a100-0000-4000-8000-0000000000a1", A100, 40L << 30, 0, "00000000:86:00.0", 0, false));
        nvml.setMigProfiles(0, FakeNvml.a100Profiles());
        nvml.setMigProfiles(1, FakeNvml.a100Profiles());
        fx = AgentFixture.prepare(dir, "mig-node", client, Map.of("VGPU_DEVICE_SOURCE", "nvml"));
        Files.writeString(dir.resolve("device-config.yaml"), """
                nvidia:
                  resourceCountName: nvidia.com/gpu
                  deviceSplitCount: 7
                  migProfileAllowlist:
                    - models: ["A100-SXM4-40GB"]
                      profiles: ["1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb"]
                """);
        Files.writeString(dir.resolve("config.json"), "{\"nodeconfig\":[{\"name\":\"mig-node\",\"operatingmode\":\"mig\"}]}");
        startAgent(nvml);

        Map<String, String> placed = schedule(pod("train", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "9000"),
                Map.of()));
        MigAllocation reserved = MigAllocationsCodec.decode(placed.get(HamiAnnotations.MIG_ALLOCATIONS)).value().get(0);
        assertThat(reserved.profile()).as("the smallest allowed profile with 9000 MiB").isEqualTo("2g.10gb");
        // the stock HAMi scheduler's bytes (DynamicMigEndToEndTest allocates a pod it annotated)
        assertThat(placed.get(HamiAnnotations.MIG_ALLOCATIONS)).isEqualTo("[{\"containerIndex\":0,\"deviceIndex\":0,"
                + "\"gpuUUID\":\"" + reserved.gpuUuid() + "\",\"profile\":\"2g.10gb\",\"placement\":{\"start\":"
                + reserved.placementStart() + ",\"size\":2}}]");
        int gpu = reserved.gpuUuid().equals(nvml.uuid(0)) ? 0 : 1;

        AllocateResponse response = allocate(List.of(reserved.gpuUuid() + "-0"));

        assertThat(nvml.gpuInstances(gpu)).hasSize(1);
        assertThat(nvml.gpuInstances(1 - gpu)).isEmpty();
        assertThat(nvml.gpuInstances(gpu).get(0).placement().start()).isEqualTo(reserved.placementStart());
        MigDevice device = nvml.migDevices(gpu).get(0);
        assertThat(response.getContainerResponses(0).getEnvsMap()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", device.uuid()));
        Map<String, String> annotations = annotations("train");
        assertThat(MigAllocationsCodec.decode(annotations.get(HamiAnnotations.MIG_ALLOCATIONS)).value())
                .containsExactly(reserved.withRuntime(device.uuid(), device.gpuInstanceId(), device.computeInstanceId()));
        assertThat(annotations).containsEntry(HamiAnnotations.BIND_PHASE, "success");
    }

    @Test
    void aTopologyAwarePodGetsTheNvLinkedPairAndAStockPodTheSameAnswer() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(gpu(0, "00000000:1B:00.0"), gpu(1, "00000000:43:00.0"), gpu(2, "00000000:52:00.0"),
                gpu(3, "00000000:61:00.0"));
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                nvml.setCommonAncestor(a, b, Nvml.TOPOLOGY_SYSTEM);
            }
        }
        // GPUs 1 and 3 share two NVLinks: the only pair with more than the common ancestor's score
        nvml.setNvLinks(1, List.of(new NvLink(0, "00000000:61:00.0", NvLink.REMOTE_GPU),
                new NvLink(1, "00000000:61:00.0", NvLink.REMOTE_GPU)));
        nvml.setNvLinks(3, List.of(new NvLink(0, "00000000:43:00.0", NvLink.REMOTE_GPU),
                new NvLink(1, "00000000:43:00.0", NvLink.REMOTE_GPU)));
        fx = AgentFixture.prepare(dir, "nvlink-node", client, Map.of("VGPU_DEVICE_SOURCE", "nvml", "ENABLE_TOPOLOGY_SCORE", "true"));
        startAgent(nvml);
        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_SCORE))).isTrue();

        Map<String, String> placed = schedule(pod("allreduce", Map.of("nvidia.com/gpu", "2"),
                Map.of(HamiAnnotations.GPU_SCHEDULER_POLICY, "topology-aware")));
        List<String> chosen = PodDevicesCodec.decode(placed.get(HamiAnnotations.DEVICES_TO_ALLOCATE)).value().get(0)
                .stream().map(ContainerDevice::uuid).toList();
        assertThat(chosen).as("the NVLinked pair").containsExactlyInAnyOrder(nvml.uuid(1), nvml.uuid(3));

        AllocateResponse response = allocate(List.of(nvml.uuid(0) + "-0", nvml.uuid(2) + "-0"));

        assertThat(response.getContainerResponses(0).getEnvsMap().get("NVIDIA_VISIBLE_DEVICES").split(","))
                .containsExactlyInAnyOrderElementsOf(chosen);
        assertThat(annotations("allreduce")).containsEntry(HamiAnnotations.BIND_PHASE, "success");

        // the same decision as the stock HAMi scheduler records it: our plugin answers that pod as the gateway's
        String stock = chosen.get(0) + ",NVIDIA,81920,0:" + chosen.get(1) + ",NVIDIA,81920,0:;";
        assertThat(placed.get(HamiAnnotations.DEVICES_ALLOCATED)).as("the gateway writes the stock scheduler's bytes")
                .isEqualTo(stock);
        assertThat(eventually(WAIT, () -> fx.lock() == null)).as("the plugin released the gateway's lock").isTrue();
        recordedStockPod("allreduce-hami", "allreduce", stock);
        lockNode(Instant.ofEpochSecond(System.currentTimeMillis() / 1000) + ",ml,allreduce-hami");
        AllocateResponse fromStock = allocate(List.of(nvml.uuid(0) + "-1", nvml.uuid(2) + "-1"));

        assertThat(withoutPodPaths(fromStock)).isEqualTo(withoutPodPaths(response));
        assertThat(annotations("allreduce-hami")).containsEntry(HamiAnnotations.BIND_PHASE, "success");
    }

    /**
     * kube-scheduler's part over HTTP: creates the pod, POSTs ExtenderArgs to {@code /filter} until the gateway's
     * informers know the registered node and it fits there, then ExtenderBindingArgs to {@code /bind}.
     *
     * @return the pod's annotations after the bind
     */
    private Map<String, String> schedule(Pod pod) throws Exception {
        Pod created = client.pods().inNamespace("ml").resource(pod).create();
        String args = "{\"Pod\":" + client.getKubernetesSerialization().asJson(created) + ",\"Nodes\":null,\"NodeNames\":[\""
                + fx.node + "\"]}";
        JsonNode[] filtered = new JsonNode[1];
        assertThat(eventually(WAIT, () -> {
            filtered[0] = post("/filter", args);
            return filtered[0].path("NodeNames").toString().equals("[\"" + fx.node + "\"]");
        })).as("the gateway's /filter places the pod on %s", fx.node).isTrue();
        JsonNode bound = post("/bind", JSON.writeValueAsString(Map.of("PodName", created.getMetadata().getName(),
                "PodNamespace", "ml", "PodUID", created.getMetadata().getUid(), "Node", fx.node)));
        assertThat(bound.path("Error").asText("")).as("/bind's error").isEmpty();
        assertThat(api.bindingNodes(created.getMetadata().getUid())).as("the recorded Binding").containsExactly(fx.node);
        assertThat(fx.lock()).as("the node lock the gateway took").contains(created.getMetadata().getName());
        Map<String, String> annotations = annotations(created.getMetadata().getName());
        assertThat(annotations).containsEntry(HamiAnnotations.BIND_PHASE, "allocating");
        return annotations;
    }

    private static JsonNode post(String path, String body) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gatewayPort + path))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("%s answers 200: %s", path, r.body()).isEqualTo(200);
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError(path + " unreachable", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static int readyz() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gatewayPort + "/readyz"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** A pending pod for the gateway's scheduler, as the webhook leaves it. */
    private static Pod pod(String name, Map<String, String> limits, Map<String, String> annotations) {
        Map<String, Quantity> quantities = new HashMap<>();
        limits.forEach((k, v) -> quantities.put(k, new Quantity(v)));
        return new PodBuilder()
                .withNewMetadata().withNamespace("ml").withName(name).withUid("uid-" + name).withAnnotations(annotations)
                .endMetadata()
                .withNewSpec().withSchedulerName("hami-scheduler").addNewContainer().withName(name).withImage("cuda")
                .withNewResources().withLimits(quantities).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
    }

    /** A pod exactly as the stock HAMi scheduler leaves it after filter and bind (recorded annotation set). */
    private void recordedStockPod(String name, String container, String devices) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, fx.node);
        annotations.put(HamiAnnotations.VGPU_TIME, "1764470000");
        annotations.put(HamiAnnotations.BIND_PHASE, "allocating");
        annotations.put(HamiAnnotations.BIND_TIME, "1764470001");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, devices);
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, devices);
        annotations.put(HamiAnnotations.GPU_SCHEDULER_POLICY, "topology-aware");
        client.pods().inNamespace("ml").resource(new PodBuilder()
                .withNewMetadata().withNamespace("ml").withName(name).withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(fx.node).addNewContainer().withName(container).withImage("cuda").endContainer()
                .endSpec().withNewStatus().withPhase("Pending").endStatus().build()).create();
    }

    /** The answer without what names the pod: the shared-cache file (a fresh UUID) and the pod's cache directory. */
    private static String withoutPodPaths(AllocateResponse response) {
        var c = response.getContainerResponses(0).toBuilder();
        c.removeEnvs("CUDA_DEVICE_MEMORY_SHARED_CACHE");
        List<io.vgpu.deviceplugin.v1beta1.Mount> mounts = c.getMountsList().stream()
                .filter(m -> !m.getHostPath().contains("/vgpu/containers/")).toList();
        return c.clearMounts().addAllMounts(mounts).build().toString();
    }

    private static GpuInfo gpu(int i, String bus) {
        return new GpuInfo(i, "GPU-2000000" + i + "-0000-4000-8000-000000000000", "NVIDIA H100 80GB HBM3", 80L << 30, 0,
                bus, 0, false);
    }

    private void startAgent(Nvml nvml) throws Exception {
        fx.agent = fx.startAgent(new NvmlDeviceSource(nvml, "nvml:test")).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER))).isTrue();
    }

    private AllocateResponse allocate(List<String> kubeletDevices) throws Exception {
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket())) {
            return plugin.blocking.allocate(AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(kubeletDevices)).build());
        }
    }

    private Map<String, String> annotations(String pod) {
        return client.pods().inNamespace("ml").withName(pod).get().getMetadata().getAnnotations();
    }

    /** As the stock scheduler's node lock writes it: guarded by resourceVersion, retried on 409. */
    private void lockNode(String value) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.nodes().withName(fx.node).edit(n -> {
                    n.getMetadata().setAnnotations(new LinkedHashMap<>(n.getMetadata().getAnnotations() == null
                            ? Map.of() : n.getMetadata().getAnnotations()));
                    n.getMetadata().getAnnotations().put(HamiAnnotations.NODE_LOCK, value);
                    return n;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }
}
