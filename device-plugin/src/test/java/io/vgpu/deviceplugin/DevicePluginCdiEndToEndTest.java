package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vertx.core.Vertx;
import io.vgpu.deviceplugin.cdi.CdiDevice;
import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.cdi.ContainerEdits;
import io.vgpu.deviceplugin.cdi.DeviceNode;
import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.CDIDevice;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Device-plugin mode with the CDI device-list strategies (issue 15 item 5): the agent, started by
 * {@link Main#start} over fake GPUs, writes the CDI spec its answers name into the CDI directory at start;
 * an {@code Allocate} through a real gRPC kubelet answers CDI names that resolve, read back from disk with the
 * runtime's rules ({@link CdiSpecFiles#scan}: every file of the CDI directories, strictly parsed), to the
 * allocated GPU's device node; the driver libraries come as DRA mode decides (nvidia-ctk's static spec named
 * next to ours when it covers the node, {@code NVIDIA_VISIBLE_DEVICES} for the NVIDIA runtime).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class DevicePluginCdiEndToEndTest {

    static KubernetesClient client;

    private static final String GPU0 = "GPU-11111111-2222-3333-4444-000000000000";
    private static final String GPU1 = "GPU-11111111-2222-3333-4444-000000000001";
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Two GPUs whose minor numbers differ from their NVML indices, so a device node by index would be wrong. */
    private static final String GPUS = """
            gpus:
              - uuid: GPU-11111111-2222-3333-4444-000000000000
                name: NVIDIA A100-SXM4-40GB
                memoryMiB: 40960
                minor: 4
              - uuid: GPU-11111111-2222-3333-4444-000000000001
                name: NVIDIA A100-SXM4-40GB
                memoryMiB: 40960
                minor: 6
            """;

    @TempDir
    Path dir;
    private AgentFixture fx;

    @AfterEach
    void stop() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void cdiCriAnswersNamesOfTheSpecOnDiskAndTheRuntimeGetsTheGpusForTheLibraries() throws Exception {
        start("node-cdi-cri", Map.of("VGPU_DEVICE_LIST_STRATEGY", "cdi-cri"));
        Path written = fx.config.draPlugin().cdiDir().resolve("k8s.device-plugin.nvidia.com-gpu.json");
        assertThat(written).isRegularFile();

        ContainerAllocateResponse c = allocate("train-0", GPU1 + ",NVIDIA,3000,30:;", GPU1 + "-0");

        List<String> names = c.getCdiDevicesList().stream().map(CDIDevice::getName).toList();
        assertThat(names).containsExactly("k8s.device-plugin.nvidia.com/gpu=" + GPU1);
        assertThat(c.getAnnotationsMap()).isEmpty();
        assertThat(resolve(names.get(0)).containerEdits().deviceNodes()).extracting(DeviceNode::path)
                .containsExactly("/dev/nvidia6");
        assertThat(c.getEnvsMap()).containsEntry("NVIDIA_VISIBLE_DEVICES", GPU1)
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m").containsEntry("CUDA_DEVICE_SM_LIMIT", "30");
        assertThat(podAnnotations("train-0")).containsEntry(HamiAnnotations.BIND_PHASE, "success");
    }

    @Test
    void cdiAnnotationsByIndexNameNvidiaCtksStaticDeviceNextToOurs() throws Exception {
        Path statics = Files.createDirectories(dir.resolve("static-cdi"));
        new CdiSpecFiles(statics).write("nvidia.com-gpu.json", nvidiaCtkSpec());
        start("node-cdi-annotations", Map.of("VGPU_DEVICE_LIST_STRATEGY", "cdi-annotations",
                "VGPU_DEVICE_ID_STRATEGY", "index"));

        ContainerAllocateResponse c = allocate("train-1", GPU0 + ",NVIDIA,2000,0:;", GPU0 + "-1");

        assertThat(c.getCdiDevicesList()).isEmpty();
        assertThat(c.getAnnotationsMap()).hasSize(1);
        Map.Entry<String, String> annotation = c.getAnnotationsMap().entrySet().iterator().next();
        assertThat(annotation.getKey()).startsWith("cdi.k8s.io/nvidia-device-plugin_");
        List<String> names = List.of(annotation.getValue().split(","));
        assertThat(names).containsExactly("k8s.device-plugin.nvidia.com/gpu=0", "nvidia.com/gpu=gpu-at-minor-4");
        for (String name : names) {
            assertThat(resolve(name).containerEdits().deviceNodes()).extracting(DeviceNode::path)
                    .as(name).containsExactly("/dev/nvidia4");
        }
        assertThat(c.getEnvsMap()).containsEntry("NVIDIA_VISIBLE_DEVICES", "0");
    }

    @Test
    void cdiLibrariesWithoutAStaticSpecRefuseToStartSayingWhy() throws Exception {
        Files.writeString(dir.resolve("gpus.yaml"), GPUS);
        AgentFixture prepared = AgentFixture.prepare(dir, "node-cdi-refused", client,
                Map.of("VGPU_DEVICE_LIST_STRATEGY", "cdi-cri", "VGPU_DRA_DRIVER_LIBRARIES", "cdi"));
        fx = prepared;
        assertThatThrownBy(() -> prepared.startAgent(new FakeGpuSource(dir.resolve("gpus.yaml")))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no static nvidia.com/gpu CDI spec covers every GPU of this node");
        assertThat(prepared.config.draPlugin().cdiDir().resolve("k8s.device-plugin.nvidia.com-gpu.json")).doesNotExist();
    }

    @Test
    void migWithTheCdiStrategiesIsRefusedBeforeAnythingIsWritten() throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("VGPU_NODE_NAME", "n", "VGPU_DEVICE_SOURCE", "fake",
                "VGPU_FAKE_GPUS_FILE", "/nonexistent", "VGPU_DEVICE_LIST_STRATEGY", "cdi-annotations",
                "VGPU_DRA_CDI_DIR", dir.resolve("cdi").toString()));
        DevicePluginConfig config = DevicePluginConfig.fromEnv(env);
        Vertx vertx = Vertx.vertx();
        try {
            List<GpuFacts> none = List.of();
            assertThatThrownBy(() -> DevicePluginCdi.write(vertx, config, "mig", MigStrategy.NONE, none)
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("operatingmode mig creates its MIG instances at Allocate");
            assertThatThrownBy(() -> DevicePluginCdi.write(vertx, config, "hami-core", MigStrategy.MIXED, none)
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("mig-strategy mixed");
            assertThat(dir.resolve("cdi")).doesNotExist();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private void start(String node, Map<String, String> env) throws Exception {
        Files.writeString(dir.resolve("gpus.yaml"), GPUS);
        fx = AgentFixture.start(dir, node, client, new FakeGpuSource(dir.resolve("gpus.yaml")), env);
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
    }

    /** A spec as {@code nvidia-ctk cdi generate} writes it: its own device names, a library mount for all. */
    private static CdiSpec nvidiaCtkSpec() {
        return new CdiSpec("nvidia.com/gpu", List.of(
                new CdiDevice("gpu-at-minor-4", ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidia4")).build()),
                new CdiDevice("gpu-at-minor-6", ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidia6")).build()),
                new CdiDevice("all", ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidia4"))
                        .deviceNode(DeviceNode.of("/dev/nvidia6")).build())),
                ContainerEdits.builder().deviceNode(DeviceNode.of("/dev/nvidiactl"))
                        .mount(io.vgpu.deviceplugin.cdi.Mount.bind("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
                                "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", true)).build());
    }

    /**
     * The device a runtime would inject for {@code qualified}: every spec of the static and the dynamic CDI
     * directories, as a runtime loads them (a file that does not parse fails the test), the later directory
     * winning.
     */
    private CdiDevice resolve(String qualified) {
        List<CdiSpecFiles.Found> found = CdiSpecFiles.scan(List.of(dir.resolve("static-cdi"), fx.config.draPlugin().cdiDir()));
        CdiDevice match = null;
        for (CdiSpecFiles.Found f : found) {
            assertThat(f.error()).as(f.file().toString()).isEmpty();
            CdiSpec spec = f.spec().orElseThrow();
            for (CdiDevice d : spec.devices()) {
                if (spec.qualifiedName(d).equals(qualified)) {
                    match = d;
                }
            }
        }
        assertThat(match).as("a CDI device called " + qualified + " on disk").isNotNull();
        return match;
    }

    private ContainerAllocateResponse allocate(String pod, String devices, String kubeletId) throws Exception {
        scheduledPod(pod, devices);
        lockNode(pod);
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket())) {
            return plugin.blocking.allocate(AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(kubeletId))
                    .build()).getContainerResponses(0);
        }
    }

    /** A pod as the HAMi scheduler leaves it after filter and bind. */
    private void scheduledPod(String name, String devices) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, fx.node);
        annotations.put(HamiAnnotations.VGPU_TIME, "1764470000");
        annotations.put(HamiAnnotations.BIND_PHASE, "allocating");
        annotations.put(HamiAnnotations.BIND_TIME, "1764470001");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, devices);
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, devices);
        Pod pod = new PodBuilder()
                .withNewMetadata().withNamespace("default").withName(name).withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(fx.node).addNewContainer().withName("train").withImage("cuda").endContainer()
                .endSpec().withNewStatus().withPhase("Pending").endStatus().build();
        client.pods().inNamespace("default").resource(pod).create();
    }

    /** The node lock as HAMi's scheduler writes it at bind (guarded by resourceVersion, retried on 409). */
    private void lockNode(String pod) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.nodes().withName(fx.node).edit(n -> {
                    n.getMetadata().setAnnotations(new LinkedHashMap<>(n.getMetadata().getAnnotations() == null
                            ? Map.of() : n.getMetadata().getAnnotations()));
                    n.getMetadata().getAnnotations().put(HamiAnnotations.NODE_LOCK, "2026-11-30T03:00:00Z,default," + pod);
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

    private Map<String, String> podAnnotations(String name) {
        return client.pods().inNamespace("default").withName(name).get().getMetadata().getAnnotations();
    }
}
