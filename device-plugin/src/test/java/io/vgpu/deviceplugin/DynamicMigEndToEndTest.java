package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.AllocateResponse;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.GpuInstanceProfile;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.NativeNvml;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlConfig;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigAllocation;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dynamic MIG ({@code operatingmode: mig}) end to end: {@link Main#start} with NVML, a fake kubelet on a
 * real Unix socket and the fabric8 CRUD mock. The node registers its MIG profiles, a pod that the HAMi
 * scheduler reserved a placement for gets exactly that instance at {@code Allocate}, the pod records
 * its identity, and the instance is reclaimed after the pod is gone. Run once over hamicore's
 * {@link FakeNvml} and once over {@link NativeNvml} (JNI) against hamicore's fake C library.
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(90)
class DynamicMigEndToEndTest {

    static KubernetesClient client;

    private static final String GPU0 = "GPU-a100a100-0000-4000-8000-000000000000";
    private static final String GPU1 = "GPU-a100a100-0000-4000-8000-000000000001";
    private static final String MODEL = "NVIDIA A100-SXM4-40GB";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String DEVICE_CONFIG = """
            nvidia:
              resourceCountName: nvidia.com/gpu
              deviceSplitCount: 7
              migProfileAllowlist:
                - models: ["A100-SXM4-40GB"]
                  profiles: ["1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb"]
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
    void overFakeNvml() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, GPU0, MODEL, 40L << 30, 0, "00000000:3B:00.0", 0, false),
                new GpuInfo(1, GPU1, MODEL, 40L << 30, 0, "00000000:86:00.0", 0, false));
        nvml.setMigProfiles(0, FakeNvml.a100Profiles());
        nvml.setMigProfiles(1, FakeNvml.a100Profiles());
        scenario("mig-fake", nvml);
    }

    @Test
    void overTheNativeLibrary() throws Exception {
        Path lib = dir.resolve("nvml/libnvidia-ml.so.1");
        Files.createDirectories(lib.getParent());
        Files.copy(Path.of(System.getProperty("vgpu.test.fakeNvml")), lib, StandardCopyOption.REPLACE_EXISTING);
        List<String> scenario = new ArrayList<>(List.of(
                "gpu " + GPU0 + " 00000000:3B:00.0 42949672960 0 0 0 0 " + MODEL,
                "gpu " + GPU1 + " 00000000:86:00.0 42949672960 0 0 0 0 " + MODEL));
        for (int gpu = 0; gpu < 2; gpu++) {
            for (GpuInstanceProfile p : FakeNvml.a100Profiles()) {
                StringBuilder line = new StringBuilder("migprofile " + gpu + " " + p.profile() + " " + p.id() + " "
                        + p.sliceCount() + " " + p.instanceCount() + " " + p.multiprocessorCount() + " " + p.memoryMiB()
                        + " " + p.placements().get(0).size());
                p.placements().forEach(pl -> line.append(' ').append(pl.start()));
                scenario.add(line.toString());
            }
        }
        Files.write(Path.of(lib + ".conf"), scenario);
        scenario("mig-native", NativeNvml.open(new NvmlConfig(lib.toString(), dir.resolve("sys"))));
    }

    private void scenario(String node, Nvml nvml) throws Exception {
        fx = AgentFixture.prepare(dir, node, client, Map.of("VGPU_DEVICE_SOURCE", "nvml"));
        Files.writeString(dir.resolve("device-config.yaml"), DEVICE_CONFIG);
        Files.writeString(dir.resolve("config.json"), "{\"nodeconfig\":[{\"name\":\"" + node + "\",\"operatingmode\":\"mig\"}]}");
        nvml.setMigMode(1, true);                              // a leftover instance on an idle GPU: reset at start
        nvml.createGpuInstance(1, 19, new InstancePlacement(0, 1));
        fx.agent = fx.startAgent(new NvmlDeviceSource(nvml, "nvml:test")).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertThat(fx.kubelet.awaitRegistration(WAIT)).isNotNull();
        assertThat(nvml.gpuInstances(1)).as("idle GPU reset at start").isEmpty();
        assertThat(nvml.migMode(0).enabled()).as("MIG mode enabled on the idle GPUs").isTrue();

        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER))).isTrue();
        List<GpuDevice> registered = NodeRegisterCodec.decode(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).value();
        assertThat(registered).hasSize(2).allSatisfy(d -> {
            assertThat(d.mode()).isEqualTo("mig");
            assertThat(d.count()).isEqualTo(7);
            assertThat(d.devcore()).isEqualTo(100);
            assertThat(d.migProfiles()).extracting(MigProfile::name).containsExactly("1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb");
        });

        MigAllocation reservation = MigAllocation.reserved(0, 0, GPU0, "2g.10gb", new MigPlacement(2, 2));
        scheduledPod("ml", "train", GPU0 + ",NVIDIA,9984,29:;", MigAllocationsCodec.encode(List.of(reservation)));
        lockNode("2026-11-30T03:00:00Z,ml,train");
        AllocateResponse response;
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket())) {
            response = plugin.blocking.allocate(AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(GPU0 + "-3")).build());
        }

        MigDevice device = nvml.migDevices(0).get(0);
        assertThat(nvml.gpuInstances(0)).singleElement()
                .satisfies(gi -> assertThat(gi.placement()).isEqualTo(new InstancePlacement(2, 2)));
        assertThat(response.getContainerResponses(0).getEnvsMap())
                .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", device.uuid()));
        Map<String, String> annotations = client.pods().inNamespace("ml").withName("train").get().getMetadata().getAnnotations();
        assertThat(MigAllocationsCodec.decode(annotations.get(HamiAnnotations.MIG_ALLOCATIONS)).value())
                .containsExactly(reservation.withRuntime(device.uuid(), device.gpuInstanceId(), device.computeInstanceId()));
        assertThat(annotations).containsEntry(HamiAnnotations.BIND_PHASE, "success");

        client.pods().inNamespace("ml").withName("train").delete();
        assertThat(eventually(WAIT, () -> nvml.gpuInstances(0).isEmpty())).as("reclaimed by the 5 s reconciler").isTrue();
        assertThat(eventually(WAIT, () -> !Files.exists(fx.hostRoot.resolve("tmp/hami/hami-mig-apply.lock"))))
                .as("the apply lock exists only while instances change").isTrue();
    }

    private void scheduledPod(String ns, String name, String toAllocate, String migAllocations) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, fx.node);
        annotations.put(HamiAnnotations.VGPU_TIME, "1764470000");
        annotations.put(HamiAnnotations.BIND_PHASE, "allocating");
        annotations.put(HamiAnnotations.BIND_TIME, "1764470001");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, toAllocate);
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, toAllocate);
        annotations.put(HamiAnnotations.MIG_ALLOCATIONS, migAllocations);
        Pod pod = new PodBuilder()
                .withNewMetadata().withNamespace(ns).withName(name).withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(fx.node).addNewContainer().withName("train").withImage("cuda").endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
        client.pods().inNamespace(ns).resource(pod).create();
    }

    /** As HAMi's scheduler writes it: guarded by resourceVersion, retried on 409 (the register loop writes the node too). */
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
