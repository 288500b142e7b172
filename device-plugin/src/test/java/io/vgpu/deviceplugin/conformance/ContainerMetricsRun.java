package io.vgpu.deviceplugin.conformance;

import io.vgpu.hamicore.testing.RegionImages;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.vgpu.deviceplugin.conformance.MonitorVectorSupport.Sample;
import io.vgpu.deviceplugin.core.monitor.Collected;
import io.vgpu.deviceplugin.core.monitor.HamiMetrics;
import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.monitor.MonitorConfig;
import io.vgpu.deviceplugin.monitor.ScanReport;
import io.vgpu.deviceplugin.monitor.VgpuMonitor;

/**
 * Runs a {@code container_metrics(_legacy)} vector end to end: the region file is written under a
 * temporary {@code <hook>/vgpu/containers/<uid>_<container>/}, the monitor's lister maps it, a pod
 * labelled {@code hami.io/vgpu-node} for this node names the container, and the monitor's
 * collector gathers the series (emission order) and exports them (with {@code zone="vGPU"}).
 */
final class ContainerMetricsRun {

    static final String NODE = "node-a";
    static final String POD_UID = "0b6f4a8e-4c1d-4f0a-9a0e-000000000001";

    /**
     * @param gathered the series as emitted, without {@code zone}
     * @param exported the series as exported through the Prometheus registry, {@code hami_build_info} removed
     * @param problems what the collector reported
     * @param scan     the lister's scan
     */
    record Result(List<Sample> gathered, List<Sample> exported, List<String> problems, ScanReport scan) {
    }

    private ContainerMetricsRun() {
    }

    static Result run(JsonNode vector, boolean legacy) throws IOException {
        Path hook = MonitorVectorSupport.scratch();
        try {
            String container = vector.get("container").asText();
            Path dir = hook.resolve("vgpu/containers").resolve(POD_UID + "_" + container);
            Files.createDirectories(dir);
            Files.write(dir.resolve("0d7f6c43-2f0e-4a56-8d4e-5d2e1c6a1b90.cache"),
                    RegionImages.zeroFilledWith(MonitorVectorSupport.fileSize(vector), vector.get("writes")));

            JsonNode pod = vector.get("pod");
            InMemoryPodDirectory pods = new InMemoryPodDirectory().put(new MonitoredPod(POD_UID,
                    pod.get("namespace").asText(), pod.get("name").asText(), NODE,
                    Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE), Map.of(), List.of(), List.of(container)));
            MonitorConfig config = MonitorConfig.defaults(NODE).withHookPath(hook).withLegacyMetrics(legacy);
            Clock clock = Clock.fixed(Instant.ofEpochSecond(vector.path("now_unix").asLong()), ZoneOffset.UTC);
            VgpuMonitor monitor = VgpuMonitor.create(config, Optional.empty(), pods, clock);

            ScanReport scan = monitor.lister().update(Set.of(POD_UID));
            Collected gathered = monitor.collector().gather();
            List<Sample> exported = new ArrayList<>(MonitorVectorSupport.samples(monitor.collector().collect()));
            exported.removeIf(s -> s.name().equals(HamiMetrics.BUILD_INFO.name()));
            return new Result(MonitorVectorSupport.samples(gathered.series()), exported, gathered.problems(), scan);
        } finally {
            MonitorVectorSupport.deleteTree(hook);
        }
    }

    /**
     * Checks shared by both kinds. Without {@code expect_error} the region must have been tracked.
     * With it, the input must be refused somewhere on the path (the lister rejects the file, or the
     * collector reports a problem) and no series may come out.
     */
    static List<String> basics(JsonNode vector, Result result) {
        List<String> problems = new ArrayList<>();
        if (vector.path("expect_error").asBoolean(false)) {
            boolean refused = !result.scan().problems().isEmpty() || !result.problems().isEmpty();
            if (!refused || !result.gathered().isEmpty()) {
                problems.add("expected an error and no series, got " + result.gathered() + " / "
                        + result.problems() + " / " + result.scan());
            }
        } else if (result.scan().tracked() != 1) {
            problems.add("the region was not tracked: " + result.scan());
        }
        return problems;
    }
}
