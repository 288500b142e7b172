package io.vgpu.deviceplugin.monitor;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.monitor.FeedbackLoop.TickReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitor over DRA claims: regions under {@code <hook>/vgpu/claims/<uid>/<request>.cache} (what
 * the DRA kubelet plugin's CDI edits point HAMi-core at), claim names from the plugin's checkpoint,
 * consumers from the pods on the node; the feedback loop steers DRA and device-plugin regions alike.
 */
class MonitorClaimRegionsTest {

    private static final String NODE = "node-a";
    private static final String GPU = "GPU-12345678-1234-1234-1234-123456789012";

    @TempDir
    Path hook;
    private Path checkpoint;
    private InMemoryPodDirectory pods;
    private VgpuMonitor monitor;

    @BeforeEach
    void setUp() throws IOException {
        checkpoint = hook.resolve("state/checkpoint.json");
        Files.createDirectories(checkpoint.getParent());
        Files.createDirectories(hook.resolve("vgpu/containers"));
        pods = new InMemoryPodDirectory();
        MonitorConfig config = MonitorConfig.defaults(NODE).withHookPath(hook).withMigApplyLock(hook.resolve("mig.lock"));
        monitor = VgpuMonitor.create(config, Optional.empty(), pods, Clock.fixed(Instant.ofEpochSecond(160), ZoneOffset.UTC),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), checkpoint);
    }

    /** The checkpoint as the kubelet plugin writes it (only what the monitor reads). */
    private void prepared(String uid, String namespace, String name) throws IOException {
        Files.writeString(checkpoint, """
                {"version":1,"driver":"gpu.vgpu.io","claims":[{"namespace":"%s","name":"%s","uid":"%s",
                  "specFile":"k8s.gpu.vgpu.io-claim_%s.json","claimDir":"/usr/local/vgpu/claims/%s","requests":["gpu"],
                  "devices":[],"shares":[]}]}
                """.formatted(namespace, name, uid, uid, uid));
    }

    private static MonitoredPod pod(String uid, String name, List<String> containers, List<MonitoredPod.ClaimUse> uses) {
        return new MonitoredPod(uid, "team", name, NODE, Map.of(), Map.of(), List.of(), containers, uses);
    }

    private List<String> samples() {
        return Arrays.stream(monitor.registry().scrape().split("\n"))
                .filter(l -> l.startsWith("hami_vgpu_memory_limit_bytes")).toList();
    }

    @Test
    void labelsAClaimRegionWithEveryPodAndContainerThatUsesTheRequestAndWithTheClaim() throws IOException {
        prepared("uid-c1", "team", "c1");
        MonitorRegionFiles.v1().uuid(GPU).limit(0, 4096L << 20).process(1L << 30, 0, 0, 0, 7)
                .writeFile(hook.resolve("vgpu/claims/uid-c1/gpu.cache"));
        pods.put(pod("p1", "trainer", List.of("main", "side"), List.of(new MonitoredPod.ClaimUse("main", "c1", ""),
                new MonitoredPod.ClaimUse("side", "other", "gpu"))));
        pods.put(pod("p2", "sharer", List.of("w"), List.of(new MonitoredPod.ClaimUse("w", "c1", "gpu"))));

        assertThat(monitor.feedback().tick().outcome()).isEqualTo(TickReport.Outcome.OBSERVED);
        assertThat(monitor.claimRegions().regions()).extracting(TrackedClaimRegion::request).containsExactly("gpu");

        String labels = ",device_uuid=\"" + GPU + "\",namespace=\"team\",";
        assertThat(samples()).containsExactlyInAnyOrder(
                "hami_vgpu_memory_limit_bytes{claim=\"c1\",container=\"main\"" + labels
                        + "pod=\"trainer\",request=\"gpu\",vdevice_index=\"0\",zone=\"vGPU\"} 4.294967296E9",
                "hami_vgpu_memory_limit_bytes{claim=\"c1\",container=\"w\"" + labels
                        + "pod=\"sharer\",request=\"gpu\",vdevice_index=\"0\",zone=\"vGPU\"} 4.294967296E9");
    }

    @Test
    void aRegionWithoutAKnownConsumerIsStillReportedAndAnUnpreparedClaimIsForgotten() throws IOException {
        prepared("uid-c1", "team", "c1");
        Path region = MonitorRegionFiles.v1().uuid(GPU).limit(0, 1L << 30)
                .writeFile(hook.resolve("vgpu/claims/uid-c1/gpu.cache"));
        monitor.feedback().tick();
        assertThat(samples()).containsExactly("hami_vgpu_memory_limit_bytes{claim=\"c1\",container=\"\",device_uuid=\""
                + GPU + "\",namespace=\"team\",pod=\"\",request=\"gpu\",vdevice_index=\"0\",zone=\"vGPU\"} 1.073741824E9");

        Files.delete(region);
        Files.delete(region.getParent());
        monitor.feedback().tick();
        assertThat(monitor.claimRegions().regions()).isEmpty();
        assertThat(samples()).isEmpty();
    }

    @Test
    void theFeedbackLoopSteersADraShareAndADevicePluginContainerOnOneGpu() throws IOException {
        prepared("uid-c1", "team", "c1");
        pods.put(pod("lo", "legacy", List.of("c"), List.of()));
        Path dra = MonitorRegionFiles.v1().uuid(GPU).priority(0).recentKernel(2).utilizationSwitch(1)
                .writeFile(hook.resolve("vgpu/claims/uid-c1/gpu.cache"));
        Path legacy = MonitorRegionFiles.v1().uuid(GPU).priority(1).recentKernel(2).utilizationSwitch(0)
                .writeTo(hook.resolve("vgpu/containers"), "lo", "c");

        TickReport report = monitor.feedback().tick();

        assertThat(report.outcome()).isEqualTo(TickReport.Outcome.OBSERVED);
        assertThat(report.observed().blocked()).isEqualTo(1);
        assertThat(MonitorRegionFiles.recentKernel(dra)).isEqualTo(1);
        assertThat(MonitorRegionFiles.recentKernel(legacy)).isEqualTo(-1);
        assertThat(MonitorRegionFiles.utilizationSwitch(legacy)).isEqualTo(1);
    }
}
