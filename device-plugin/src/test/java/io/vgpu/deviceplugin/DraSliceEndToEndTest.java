package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DeviceAttribute;
import io.vgpu.state.dra.DeviceCapacity;
import io.vgpu.state.dra.DeviceTaint;
import io.vgpu.state.dra.Quantity;
import io.vgpu.state.dra.ResourceSliceCodec;
import io.vgpu.state.dra.SliceDevice;
import io.vgpu.state.dra.SliceObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ResourceSlice publisher as {@link Main} runs it on a node labelled {@code vgpu.io/mode=dra}: fake GPUs,
 * the fabric8 CRUD mock API server (one per test; it validates every slice written to it with the model's
 * validator, as the real API server would), spec/dra-spec.md §7 items 1–4 and 24.
 */
@Timeout(90)
class DraSliceEndToEndTest {

    static final String GPU0 = "GPU-6f1e2d3c-0000-4000-8000-000000000001";
    static final String GPU1 = "GPU-6f1e2d3c-0000-4000-8000-000000000002";
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;
    private NodeFieldApiServer api;
    private KubernetesClient client;
    private AgentFixture fx;

    /** Two A100-40GB with every identity fact, as NVML would report them. */
    static String gpus(boolean secondHealthy, long secondMiB) {
        return firstGpu() + """
                  - {uuid: %s, name: NVIDIA A100-SXM4-40GB, memoryMiB: %d, numa: 1, minor: 1, healthy: %s,
                     architecture: Ampere, brand: Nvidia, cudaComputeCapability: "8.0", pciBusId: "00000000:0F:00.0"}
                """.formatted(GPU1, secondMiB, secondHealthy);
    }

    /** The first of them alone. */
    static String firstGpu() {
        return """
                driverVersion: "535.104.05"
                cudaDriverVersion: "12.2"
                gpus:
                  - {uuid: %s, name: NVIDIA A100-SXM4-40GB, memoryMiB: 40960, numa: 0, minor: 0,
                     architecture: Ampere, brand: Nvidia, cudaComputeCapability: "8.0", pciBusId: "00000000:07:00.0"}
                """.formatted(GPU0);
    }

    @BeforeEach
    void startApiServer() {
        api = NodeFieldApiServer.start();
        client = api.client();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (fx != null) {
                fx.close();
            }
        } finally {
            api.close();
        }
    }

    private void startDraNode(String node, String gpus) throws Exception {
        fx = AgentFixture.startNode(dir, node, client, Map.of("vgpu.io/mode", "dra"), Map.of(), Map.of(), gpus);
    }

    /** Restarts the agent on the same node, files and API server (a new process would do the same). */
    private void restartAgent() throws Exception {
        fx.agent.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        fx.agent = fx.startAgent(new FakeGpuSource(dir.resolve("gpus.yaml"))).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
    }

    private List<ResourceSlice> slices() {
        return client.resources(ResourceSlice.class).list().getItems().stream()
                .filter(s -> fx.node.equals(s.getSpec().getNodeName())).toList();
    }

    private SliceObject slice() {
        List<ResourceSlice> all = slices();
        assertThat(all).hasSize(1);
        return ResourceSliceCodec.decode(client.getKubernetesSerialization().asJson(all.get(0))).value();
    }

    private boolean published(Predicate<SliceObject> condition) {
        List<ResourceSlice> all = slices();
        return all.size() == 1 && condition.test(ResourceSliceCodec.decode(client.getKubernetesSerialization()
                .asJson(all.get(0))).value());
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && fx.node.equals(e.getInvolvedObject().getName())).toList();
    }

    /**
     * Issue 15 item 5: a node in {@code operatingmode: mig} (dynamic MIG, over FakeNvml) labelled for DRA mode
     * publishes a slice without its GPUs and says why in a Node Event; the MIG GPUs stay device-plugin mode's.
     */
    @Test
    void offersNoGpuOfADynamicMigNodeAndSaysWhyOnTheNode() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(new GpuInfo(0, GPU0, "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:07:00.0", 0, false));
        nvml.setMigProfiles(0, FakeNvml.a100Profiles());
        fx = AgentFixture.prepare(dir, "node-dra-mig", client, Map.of("VGPU_DEVICE_SOURCE", "nvml"));
        client.nodes().withName(fx.node).edit(n -> {
            n.getMetadata().getLabels().put("vgpu.io/mode", "dra");
            return n;
        });
        Files.writeString(dir.resolve("device-config.yaml"), """
                nvidia:
                  resourceCountName: nvidia.com/gpu
                  migProfileAllowlist:
                    - models: ["A100-SXM4-40GB"]
                      profiles: ["1g.5gb", "7g.40gb"]
                """);
        Files.writeString(dir.resolve("config.json"), "{\"nodeconfig\":[{\"name\":\"node-dra-mig\",\"operatingmode\":\"mig\"}]}");
        fx.agent = fx.startAgent(new NvmlDeviceSource(nvml, "nvml:test")).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        assertThat(eventually(WAIT, () -> !events("GpusNotOffered").isEmpty())).as("a Node Event says why").isTrue();
        assertThat(events("GpusNotOffered").get(0).getMessage()).contains(GPU0)
                .contains("operatingmode mig (dynamic MIG) is served in device-plugin mode only");
        assertThat(eventually(WAIT, () -> published(s -> s.content().devices().isEmpty()))).as("no GPU offered").isTrue();
    }

    @Test
    void publishesOneValidSliceOwnedByTheNodeWithOneSharedDevicePerGpu() throws Exception {
        startDraNode("node-dra-shape", gpus(true, 40960));

        assertThat(eventually(WAIT, () -> slices().size() == 1)).as("a slice is published").isTrue();
        ResourceSlice stored = slices().get(0);
        SliceObject slice = slice();
        String nodeUid = client.nodes().withName(fx.node).get().getMetadata().getUid();
        assertThat(stored.getMetadata().getName()).isEqualTo("node-dra-shape-gpu.vgpu.io");
        assertThat(stored.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getKind()).isEqualTo("Node");
            assertThat(ref.getName()).isEqualTo(fx.node);
            assertThat(ref.getUid()).isEqualTo(nodeUid);
            assertThat(ref.getController()).isTrue();
        });
        assertThat(slice.content().driver()).isEqualTo("gpu.vgpu.io");
        assertThat(slice.content().nodeName()).isEqualTo(fx.node);
        assertThat(slice.content().pool().name()).isEqualTo(fx.node);
        assertThat(slice.content().pool().resourceSliceCount()).isEqualTo(1);
        assertThat(slice.content().pool().generation()).isGreaterThanOrEqualTo(1);
        assertThat(slice.content().devices()).extracting(SliceDevice::name).containsExactly("gpu-0", "gpu-1");
        SliceDevice gpu0 = slice.content().devices().get(0);
        assertThat(gpu0.allowMultipleAllocations()).isTrue();
        // device config of the fixture: split count 4 -> a share is 250 of 1000 slots
        assertThat(gpu0.capacity()).containsEntry("memory", new DeviceCapacity(Quantity.parse("40Gi"),
                Optional.of(DeviceCapacity.RequestPolicy.range(Quantity.parse("40Gi"), new DeviceCapacity.ValidRange(
                        Quantity.parse("1Mi"), Optional.empty(), Optional.of(Quantity.parse("1Mi")))))));
        assertThat(gpu0.capacity().get("cores").value()).isEqualTo(Quantity.of(100));
        assertThat(gpu0.capacity().get("slots").requestPolicy().get().validValues())
                .containsExactly(Quantity.of(250), Quantity.of(1000));
        assertThat(gpu0.attributes()).containsEntry("uuid", DeviceAttribute.of(GPU0))
                .containsEntry("index", DeviceAttribute.of(0))
                .containsEntry("driverVersion", DeviceAttribute.version("535.104.5"))
                .containsEntry("cudaComputeCapability", DeviceAttribute.version("8.0.0"))
                .containsEntry("resource.kubernetes.io/pciBusID", DeviceAttribute.of("0000:07:00.0"));
        assertThat(api.validatedSlices()).as("every slice written passed the validator").isPositive();
        assertThat(api.refusedSlices()).isEmpty();
        assertThat(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).as("no register annotation").isNull();
    }

    @Test
    void republishesTheSameSliceWithinSecondsAfterTheKubeletDeletesIt() throws Exception {
        startDraNode("node-dra-kubelet", gpus(true, 40960));
        assertThat(eventually(WAIT, () -> slices().size() == 1)).isTrue();
        SliceObject before = slice();

        // a kubelet restart deletes every slice of the node (spec §4.2 item 5)
        client.resources(ResourceSlice.class).withName(before.name()).delete();

        assertThat(eventually(Duration.ofSeconds(5), () -> published(s -> !s.resourceVersion().equals(before.resourceVersion()))))
                .as("republished within seconds").isTrue();
        SliceObject after = slice();
        assertThat(after.name()).isEqualTo(before.name());
        assertThat(after.content()).as("same content, same generation").isEqualTo(before.content());
    }

    @Test
    void bumpsTheGenerationOnlyWhenTheContentChangesAndKeepsNamesAcrossRestarts() throws Exception {
        startDraNode("node-dra-generation", gpus(true, 40960));
        assertThat(eventually(WAIT, () -> slices().size() == 1)).isTrue();
        long first = slice().content().pool().generation();

        // the memory of GPU 1 changes (the rescan reads the fake file again): generation + 1
        Files.writeString(dir.resolve("gpus.yaml"), gpus(true, 40000));
        assertThat(eventually(WAIT, () -> published(s -> s.content().pool().generation() == first + 1))).isTrue();
        SliceObject changed = slice();
        assertThat(changed.content().devices().get(1).capacity().get("memory").value()).isEqualTo(Quantity.parse("40000Mi"));

        // a restart with the same GPUs adopts the slice: no write, the generation is not reset
        int writes = api.validatedSlices();
        restartAgent();
        assertThat(api.validatedSlices()).as("an unchanged slice is not written again").isEqualTo(writes);
        assertThat(slice().content()).isEqualTo(changed.content());
        assertThat(slice().content().pool().generation()).isEqualTo(first + 1);

        // a restart with GPU 1 gone: generation + 1, the remaining device keeps its name
        Files.writeString(dir.resolve("gpus.yaml"), firstGpu());
        restartAgent();
        assertThat(eventually(WAIT, () -> published(s -> s.content().devices().size() == 1))).isTrue();
        assertThat(slice().content().pool().generation()).isEqualTo(first + 2);
        assertThat(slice().content().devices()).extracting(SliceDevice::name).containsExactly("gpu-0");
        assertThat(api.refusedSlices()).isEmpty();
    }

    @Test
    void taintsUnhealthyAndCordonedGpus() throws Exception {
        startDraNode("node-dra-taints", gpus(false, 40960));
        assertThat(eventually(WAIT, () -> published(s -> s.content().devices().size() == 2
                && s.content().devices().get(1).taints().equals(
                List.of(new DeviceTaint("gpu.vgpu.io/unhealthy", "", "NoSchedule")))))).isTrue();
        assertThat(slice().content().devices().get(0).taints()).isEmpty();

        client.nodes().withName(fx.node).edit(n -> {
            n.getMetadata().getAnnotations().put(HamiAnnotations.DEVICE_CORDON, " " + GPU0 + " ");
            return n;
        });

        assertThat(eventually(WAIT, () -> published(s -> s.content().devices().size() == 2
                && s.content().devices().get(0).taints().equals(
                List.of(new DeviceTaint("gpu.vgpu.io/cordoned", "", "NoSchedule")))))).isTrue();
    }

    @Test
    void withdrawsUnhealthyGpusWhereTheApiServerDropsTaints() throws Exception {
        api.dropDeviceTaints(true);
        startDraNode("node-dra-no-taints", gpus(false, 40960));

        assertThat(eventually(WAIT, () -> published(s -> s.content().devices().size() == 1))).as("GPU 1 withdrawn").isTrue();
        assertThat(slice().content().devices()).extracting(SliceDevice::name).containsExactly("gpu-0");
        assertThat(eventually(WAIT, () -> !events("DeviceTaintsDropped").isEmpty())).as("a Node Event says why").isTrue();
    }

    @Test
    void refusesToPublishASliceTheApiServerWouldRejectAndSaysSoOnTheNode() throws Exception {
        String longName = "NVIDIA " + "X".repeat(70);
        startDraNode("node-dra-invalid", gpus(true, 40960).replaceFirst("NVIDIA A100-SXM4-40GB", longName));

        assertThat(eventually(WAIT, () -> !events("ResourceSliceInvalid").isEmpty())).isTrue();
        assertThat(events("ResourceSliceInvalid").get(0).getMessage()).contains("productName].string: 77 characters, at most 64");
        assertThat(slices()).as("nothing published").isEmpty();
        assertThat(api.refusedSlices()).as("nothing invalid was even sent").isEmpty();
    }
}
