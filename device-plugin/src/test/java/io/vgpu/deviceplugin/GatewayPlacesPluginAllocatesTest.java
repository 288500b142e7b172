package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterAnnotations;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.NvLink;
import io.vgpu.hamicore.Nvml;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.codec.PodPatchCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.MigAllocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our gateway and our device plugin together, on the fabric8 CRUD mock with fake GPUs: the plugin
 * ({@link Main#start} over {@link FakeNvml}) registers its node; the gateway's filter ({@link FilterDecider},
 * the code its extender runs, test-scoped without its Hazelcast and HTTP parts) places a pod from nothing but
 * the node's annotations; the pod gets the gateway's filter and bind patches ({@link PodPatchCodec}); the
 * plugin then allocates exactly what the gateway chose: a dynamic-MIG instance at the reserved placement, and
 * the NVLinked GPU pair for a {@code topology-aware} pod. The gateway writes the stock HAMi scheduler's bytes
 * (MIG record; the two-GPU entry), and a pod carrying the stock scheduler's recorded annotations for the same
 * pair is answered exactly as the gateway's pod (all but its own cache paths).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(90)
class GatewayPlacesPluginAllocatesTest {

    static KubernetesClient client;

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String A100 = "NVIDIA A100-SXM4-40GB";
    private static final FilterDecider GATEWAY = new FilterDecider(FilterConfig.defaults());

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

        Map<String, String> placed = place(pod("train", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "9000"), Map.of()));
        MigAllocation reserved = MigAllocationsCodec.decode(placed.get(HamiAnnotations.MIG_ALLOCATIONS)).value().get(0);
        assertThat(reserved.profile()).as("the smallest allowed profile with 9000 MiB").isEqualTo("2g.10gb");
        // the stock HAMi scheduler's bytes (DynamicMigEndToEndTest allocates a pod it annotated)
        assertThat(placed.get(HamiAnnotations.MIG_ALLOCATIONS)).isEqualTo("[{\"containerIndex\":0,\"deviceIndex\":0,"
                + "\"gpuUUID\":\"" + reserved.gpuUuid() + "\",\"profile\":\"2g.10gb\",\"placement\":{\"start\":"
                + reserved.placementStart() + ",\"size\":2}}]");
        assertThat(placed.get(HamiAnnotations.DEVICES_TO_ALLOCATE)).matches(reserved.gpuUuid() + ",NVIDIA,\\d+,\\d+:;");
        int gpu = reserved.gpuUuid().equals(nvml.uuid(0)) ? 0 : 1;

        AllocateResponse response = allocate("train", List.of(reserved.gpuUuid() + "-0"));

        GpuInstance instance = nvml.gpuInstances(gpu).get(0);
        assertThat(nvml.gpuInstances(gpu)).hasSize(1);
        assertThat(instance.placement()).isEqualTo(new InstancePlacement(reserved.placementStart(), reserved.placementSize()));
        MigDevice device = nvml.migDevices(gpu).get(0);
        assertThat(response.getContainerResponses(0).getEnvsMap()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", device.uuid()));
        Map<String, String> annotations = annotations("train");
        assertThat(MigAllocationsCodec.decode(annotations.get(HamiAnnotations.MIG_ALLOCATIONS)).value())
                .containsExactly(reserved.withRuntime(device.uuid(), device.gpuInstanceId(), device.computeInstanceId()));
        assertThat(annotations).containsEntry(HamiAnnotations.BIND_PHASE, "success");
    }

    @Test
    void aTopologyAwarePodGetsTheNvLinkedPair() throws Exception {
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

        Map<String, String> placed = place(pod("allreduce", Map.of("nvidia.com/gpu", "2"),
                Map.of(HamiAnnotations.GPU_SCHEDULER_POLICY, "topology-aware")));
        List<String> chosen = PodDevicesCodec.decode(placed.get(HamiAnnotations.DEVICES_TO_ALLOCATE)).value().get(0)
                .stream().map(ContainerDevice::uuid).toList();
        assertThat(chosen).containsExactlyInAnyOrder(nvml.uuid(1), nvml.uuid(3));

        AllocateResponse response = allocate("allreduce", List.of(nvml.uuid(0) + "-0", nvml.uuid(2) + "-0"));

        assertThat(response.getContainerResponses(0).getEnvsMap().get("NVIDIA_VISIBLE_DEVICES").split(","))
                .containsExactlyInAnyOrderElementsOf(chosen);
        assertThat(annotations("allreduce")).containsEntry(HamiAnnotations.BIND_PHASE, "success");

        // the same decision as the stock HAMi scheduler records it (its bytes for two whole 80 GiB GPUs, in the
        // order the gateway chose): our plugin answers that pod exactly as it answered the gateway's
        String stock = chosen.get(0) + ",NVIDIA,81920,0:" + chosen.get(1) + ",NVIDIA,81920,0:;";
        assertThat(placed.get(HamiAnnotations.DEVICES_ALLOCATED)).as("the gateway writes the stock scheduler's bytes")
                .isEqualTo(stock);
        recordedStockPod("allreduce-hami", "allreduce", stock);
        lockNode(Instant.ofEpochSecond(System.currentTimeMillis() / 1000) + ",ml,allreduce-hami");
        AllocateResponse fromStock = allocate("allreduce-hami", List.of(nvml.uuid(0) + "-1", nvml.uuid(2) + "-1"));

        assertThat(withoutPodPaths(fromStock)).isEqualTo(withoutPodPaths(response));
        assertThat(annotations("allreduce-hami")).containsEntry(HamiAnnotations.BIND_PHASE, "success")
                .containsEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, ";;");
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

    private PodSpec pod(String name, Map<String, String> limits, Map<String, String> annotations) {
        return new PodSpec(name, "ml", "uid-" + name, "hami-scheduler", "", null, annotations, Map.of(), List.of(),
                List.of(new Container(name, limits, limits, false, List.of())));
    }

    /**
     * The gateway's part: its filter decides from the node's annotations alone, then the pod is created as
     * kube-scheduler leaves it (bound to the node) with the gateway's filter and bind patches, and the node is
     * locked for it.
     *
     * @return the pod's annotations after the bind
     */
    private Map<String, String> place(PodSpec spec) {
        FilterDecision decision = GATEWAY.decideSimulation(spec, Map.of(fx.node, fx.nodeAnnotations()));
        assertThat(decision).as("the gateway's filter").isInstanceOf(FilterDecision.Fits.class);
        Candidate best = ((FilterDecision.Fits) decision).best();
        assertThat(best.node()).isEqualTo(fx.node);
        Pod pod = new PodBuilder()
                .withNewMetadata().withNamespace(spec.namespace()).withName(spec.name()).withAnnotations(spec.annotations())
                .endMetadata()
                .withNewSpec().withNodeName(fx.node).addNewContainer().withName(spec.name()).withImage("cuda").endContainer()
                .endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
        client.pods().inNamespace(spec.namespace()).resource(pod).create();
        long now = System.currentTimeMillis() / 1000;
        patch(spec.name(), PodPatchCodec.filterPatch(FilterAnnotations.annotations(best, now), FilterAnnotations.labels(best)));
        lockNode(Instant.ofEpochSecond(now) + ",ml," + spec.name());
        patch(spec.name(), PodPatchCodec.bindPatch(PodPatchCodec.PHASE_ALLOCATING, now));
        return annotations(spec.name());
    }

    private AllocateResponse allocate(String pod, List<String> kubeletDevices) throws Exception {
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket())) {
            return plugin.blocking.allocate(AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(kubeletDevices)).build());
        }
    }

    private void patch(String pod, String mergePatch) {
        client.pods().inNamespace("ml").withName(pod).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    private Map<String, String> annotations(String pod) {
        return client.pods().inNamespace("ml").withName(pod).get().getMetadata().getAnnotations();
    }

    /** As the gateway's node lock writes it: guarded by resourceVersion, retried on 409 (the register loop writes too). */
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
