package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.NvLink;
import io.vgpu.hamicore.Nvml;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ENABLE_TOPOLOGY_SCORE=true} end to end: {@link Main#start} over NVML (hamicore's
 * {@link FakeNvml}) publishes HAMi's pair scores beside the register annotation, and asymmetric link
 * data is a Warning Event on the Node.
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class TopologyScoreEndToEndTest {

    static KubernetesClient client;

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private AgentFixture fx;

    @AfterEach
    void stop() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    private static GpuInfo gpu(int i, String bus) {
        return new GpuInfo(i, "GPU-1000000" + i + "-0000-4000-8000-000000000000", "NVIDIA H100 80GB HBM3", 80L << 30, 0,
                bus, 0, false);
    }

    @Test
    void publishesPairScoresWithTheRegisterAndWarnsAboutAsymmetricLinks() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(gpu(0, "00000000:1B:00.0"), gpu(1, "00000000:43:00.0"), gpu(2, "00000000:52:00.0"));
        String g0 = nvml.uuid(0);
        String g1 = nvml.uuid(1);
        String g2 = nvml.uuid(2);
        nvml.setCommonAncestor(0, 1, Nvml.TOPOLOGY_SINGLE);      // 50
        nvml.setCommonAncestor(0, 2, Nvml.TOPOLOGY_SYSTEM);      // 10
        nvml.setCommonAncestor(1, 2, Nvml.TOPOLOGY_SYSTEM);
        nvml.setNvLinks(0, List.of(new NvLink(0, "00000000:43:00.0", NvLink.REMOTE_GPU),
                new NvLink(1, "00000000:43:00.0", NvLink.REMOTE_GPU), new NvLink(2, "00000000:52:00.0", NvLink.REMOTE_GPU)));
        nvml.setNvLinks(1, List.of(new NvLink(0, "00000000:1B:00.0", NvLink.REMOTE_GPU),
                new NvLink(1, "00000000:1B:00.0", NvLink.REMOTE_GPU)));
        // GPU 2 does not see the link GPU 0 has towards it

        fx = AgentFixture.start(dir, "topo-node", client, new NvmlDeviceSource(nvml, "nvml:fake"),
                Map.of("VGPU_DEVICE_SOURCE", "nvml", "ENABLE_TOPOLOGY_SCORE", "true"));

        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_SCORE))).isTrue();
        assertThat(fx.nodeAnnotations()).containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER);
        assertThat(fx.nodeAnnotations().get(HamiAnnotations.NODE_NVIDIA_SCORE)).isEqualTo("["
                + "{\"uuid\":\"" + g0 + "\",\"score\":{\"" + g1 + "\":250,\"" + g2 + "\":0}},"
                + "{\"uuid\":\"" + g1 + "\",\"score\":{\"" + g0 + "\":250,\"" + g2 + "\":10}},"
                + "{\"uuid\":\"" + g2 + "\",\"score\":{\"" + g0 + "\":0,\"" + g1 + "\":10}}]");
        assertThat(eventually(WAIT, () -> client.v1().events().inNamespace("default").list().getItems().stream()
                .anyMatch(e -> "AsymmetricGPUP2PLink".equals(e.getReason())))).isTrue();
        Event event = client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "AsymmetricGPUP2PLink".equals(e.getReason())).findFirst().orElseThrow();
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("topo-node");
        assertThat(event.getMessage()).contains(g0 + "/" + g2);
    }

    @Test
    void withoutTheSwitchNoScoreIsPublished() throws Exception {
        FakeNvml nvml = FakeNvml.withGpus(gpu(0, "00000000:1B:00.0"), gpu(1, "00000000:43:00.0"));
        fx = AgentFixture.start(dir, "plain-node", client, new NvmlDeviceSource(nvml, "nvml:fake"),
                Map.of("VGPU_DEVICE_SOURCE", "nvml"));

        assertThat(eventually(WAIT, () -> fx.nodeAnnotations().containsKey(HamiAnnotations.NODE_NVIDIA_REGISTER))).isTrue();
        assertThat(fx.nodeAnnotations()).doesNotContainKey(HamiAnnotations.NODE_NVIDIA_SCORE);
    }
}
