package io.vgpu.deviceplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.deviceplugin.AgentFixture.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15 item 5's metric: a dynamic-MIG node labelled for DRA mode offers none of its GPUs, and the agent's
 * {@code /metrics} says how many and why ({@code vgpu_dra_gpus_not_offered{reason="dynamic_mig"}}), every other
 * reason at 0; back in device-plugin mode the series fall to 0.
 */
@Timeout(90)
class DraNotOfferedMetricTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String A100 = "NVIDIA A100-SXM4-40GB";

    @TempDir
    Path dir;
    private NodeFieldApiServer api;
    private AgentFixture fx;

    @AfterEach
    void stop() throws Exception {
        try {
            if (fx != null) {
                fx.close();
            }
        } finally {
            if (api != null) {
                api.close();
            }
        }
    }

    @Test
    void countsTheMigGpusThatDraModeDoesNotOffer() throws Exception {
        api = NodeFieldApiServer.start();
        KubernetesClient client = api.client();
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-6f1e2d3c-0000-4000-8000-0000000000a0", A100, 40L << 30, 0, "00000000:07:00.0", 0, false),
                new GpuInfo(1, "GPU-6f1e2d3c-0000-4000-8000-0000000000a1", A100, 40L << 30, 0, "00000000:0B:00.0", 1, false));
        nvml.setMigProfiles(0, FakeNvml.a100Profiles());
        nvml.setMigProfiles(1, FakeNvml.a100Profiles());
        fx = AgentFixture.prepare(dir, "node-dra-mig-metric", client,
                Map.of("VGPU_DEVICE_SOURCE", "nvml", "VGPU_MONITOR_ENABLED", "true"));
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
        Files.writeString(dir.resolve("config.json"),
                "{\"nodeconfig\":[{\"name\":\"node-dra-mig-metric\",\"operatingmode\":\"mig\"}]}");
        fx.agent = fx.startAgent(new NvmlDeviceSource(nvml, "nvml:test")).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        String mig = series("dynamic_mig");
        assertThat(eventually(WAIT, () -> samples().contains(mig + " 2.0"))).as("both MIG GPUs counted: %s", samples()).isTrue();
        assertThat(samples()).filteredOn(l -> l.startsWith("vgpu_dra_gpus_not_offered{") && !l.startsWith(mig + " "))
                .as("one series per reason, the others at 0").hasSize(5).allMatch(l -> l.endsWith(" 0.0"));

        client.nodes().withName(fx.node).edit(n -> {
            n.getMetadata().getLabels().put("vgpu.io/mode", "device-plugin");
            return n;
        });
        assertThat(eventually(WAIT, () -> samples().contains(mig + " 0.0"))).as("not in DRA mode: nothing counted").isTrue();
    }

    private String series(String reason) {
        return "vgpu_dra_gpus_not_offered{node=\"" + fx.node + "\",reason=\"" + reason + "\"}";
    }

    private List<String> samples() {
        try {
            return Arrays.stream(fx.scrape().body().split("\n")).filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
