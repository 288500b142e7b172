package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.v1beta1.AllocateRequest;
import io.vgpu.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.vgpu.deviceplugin.v1beta1.Device;
import io.vgpu.deviceplugin.v1beta1.ListAndWatchResponse;
import io.vgpu.deviceplugin.v1beta1.RegisterRequest;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.InstancePlacement;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.XidEvent;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * NVIDIA's static MIG strategies through {@link Main#start} over NVML (hamicore's {@link FakeNvml} with
 * MIG instances made beforehand, as an operator or NVIDIA's MIG Manager makes them).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class StaticMigEndToEndTest {

    static KubernetesClient client;

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String MIG_GPU = "GPU-a100a100-0000-4000-8000-0000000000a0";
    private static final String PLAIN_GPU = "GPU-a100a100-0000-4000-8000-0000000000a1";

    @TempDir
    Path dir;
    private AgentFixture fx;

    @AfterEach
    void stop() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    private FakeNvml node(boolean secondInMig) {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, MIG_GPU, "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:3B:00.0", 1, true),
                new GpuInfo(1, PLAIN_GPU, "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:86:00.0", 0, secondInMig));
        nvml.setMigProfiles(0, FakeNvml.a100Profiles());
        nvml.setMigProfiles(1, FakeNvml.a100Profiles());
        return nvml;
    }

    private static void instance(FakeNvml nvml, int gpu, int profileId, int start, int size, int computeProfile) {
        int gi = nvml.createGpuInstance(gpu, profileId, new InstancePlacement(start, size));
        nvml.createComputeInstance(gpu, gi, computeProfile);
    }

    @Test
    void mixedMakesOneResourcePerProfileBesideTheGpusWithoutMig() throws Exception {
        FakeNvml nvml = node(false);
        instance(nvml, 0, 19, 6, 1, 0);           // 1g.5gb
        instance(nvml, 0, 19, 5, 1, 0);           // 1g.5gb
        instance(nvml, 0, 14, 0, 2, 1);           // 2g.10gb
        fx = AgentFixture.start(dir, "static-mixed", client, new NvmlDeviceSource(nvml, "nvml:fake"),
                Map.of("VGPU_DEVICE_SOURCE", "nvml", "VGPU_MIG_STRATEGY", "mixed"));

        List<String> resources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RegisterRequest r = fx.kubelet.awaitRegistration(WAIT);
            assertThat(r).isNotNull();
            resources.add(r.getResourceName() + " " + r.getEndpoint());
        }
        assertThat(resources).containsExactlyInAnyOrder("nvidia.com/gpu vgpu-nvidia.sock",
                "nvidia.com/mig-1g.5gb vgpu-nvidia-mig-1g.5gb.sock", "nvidia.com/mig-2g.10gb vgpu-nvidia-mig-2g.10gb.sock");

        List<String> small = nvml.migDevices(0).stream().filter(d -> d.gpuInstanceId() != 3).map(MigDevice::uuid).toList();
        try (FakeKubelet.PluginConnection mig = fx.kubelet.connect(fx.pluginSocket().resolveSibling("vgpu-nvidia-mig-1g.5gb.sock")).watch();
             FakeKubelet.PluginConnection gpu = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            ListAndWatchResponse devices = mig.nextUpdate(WAIT);
            assertThat(devices.getDevicesList()).extracting(Device::getID).containsExactlyInAnyOrderElementsOf(small);
            assertThat(devices.getDevicesList()).allSatisfy(d -> {
                assertThat(d.getHealth()).isEqualTo("Healthy");
                assertThat(d.getTopology().getNodes(0).getID()).as("the GPU's NUMA node, always").isEqualTo(1);
            });
            assertThat(gpu.nextUpdate(WAIT).getDevicesList()).extracting(Device::getID).allMatch(id -> id.startsWith(PLAIN_GPU + "-"));

            var answer = mig.blocking.allocate(AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(small.get(1))).build());
            assertThat(answer.getContainerResponses(0).getEnvsMap()).containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", small.get(1)));

            nvml.injectXid(XidEvent.critical(MIG_GPU, 79));               // the GPU's XID: all its MIG devices
            ListAndWatchResponse update = mig.nextUpdate(WAIT);
            while (update != null && update.getDevicesList().stream().anyMatch(d -> d.getHealth().equals("Healthy"))) {
                update = mig.nextUpdate(WAIT);
            }
            assertThat(update).as("every MIG device of the GPU unhealthy").isNotNull();
        }
        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().getOrDefault(HamiAnnotations.NODE_NVIDIA_REGISTER, "")
                .startsWith("[{\"id\":\"" + PLAIN_GPU + "\""))).as("only the GPU without MIG is HAMi's").isTrue();
        assertThat(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).doesNotContain(MIG_GPU);
    }

    @Test
    void singleAdvertisesTheMigDevicesAsTheGpuResource() throws Exception {
        FakeNvml nvml = node(true);
        instance(nvml, 0, 19, 6, 1, 0);
        instance(nvml, 1, 19, 6, 1, 0);
        fx = AgentFixture.start(dir, "static-single", client, new NvmlDeviceSource(nvml, "nvml:fake"),
                Map.of("VGPU_DEVICE_SOURCE", "nvml", "MIG_STRATEGY", "single"));

        assertThat(fx.kubelet.awaitRegistration(WAIT).getResourceName()).isEqualTo("nvidia.com/gpu");
        try (FakeKubelet.PluginConnection plugin = fx.kubelet.connect(fx.pluginSocket()).watch()) {
            assertThat(plugin.nextUpdate(WAIT).getDevicesList()).extracting(Device::getID).containsExactlyInAnyOrder(
                    nvml.migDevices(0).get(0).uuid(), nvml.migDevices(1).get(0).uuid());
        }
        assertThat(eventually(WAIT, () -> "[]".equals(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER))))
                .as("no GPU is shared through HAMi").isTrue();
    }
}
