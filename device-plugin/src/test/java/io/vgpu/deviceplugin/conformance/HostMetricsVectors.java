package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.vgpu.deviceplugin.conformance.MonitorVectorSupport.Sample;
import io.vgpu.deviceplugin.core.monitor.Collected;
import io.vgpu.deviceplugin.core.monitor.HamiMetrics;
import io.vgpu.deviceplugin.core.monitor.InMemoryPodDirectory;
import io.vgpu.deviceplugin.monitor.HostGpuCollector;
import io.vgpu.deviceplugin.monitor.MonitorConfig;
import io.vgpu.deviceplugin.monitor.VgpuMonitor;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.Utilization;

/**
 * Kind {@code host_metrics}: an in-memory NVML describing the vector's GPU, the listed HAMi
 * collector functions called on it, the emitted series compared in order (or the error). When
 * both functions are listed and no error is expected, the whole collector is also run through
 * the Prometheus registry and the exported series compared with {@code zone="vGPU"}.
 */
public final class HostMetricsVectors implements NodeVectorFamily {

    private static final String MEMORY = "collectGPUMemoryMetrics";
    private static final String UTILIZATION = "collectGPUUtilizationMetrics";

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        int index = vector.path("device_index").asInt(0);
        FakeNvml nvml = nvml(vector.get("nvml"), index);
        String node = vector.path("node_name").asText("");
        boolean legacy = vector.path("legacy").asBoolean(false);
        HostGpuCollector collector = new HostGpuCollector(nvml, node, legacy);

        Collected emitted = Collected.NONE;
        List<String> functions = new ArrayList<>();
        vector.get("functions").forEach(f -> functions.add(f.asText()));
        for (String function : functions) {
            emitted = emitted.plus(switch (function) {
                case MEMORY -> collector.memory(index);
                case UTILIZATION -> collector.utilization(index);
                default -> throw new IllegalArgumentException("unknown collector function " + function);
            });
        }

        List<String> problems = new ArrayList<>();
        if (vector.hasNonNull("expect_error_contains")) {
            String wanted = vector.get("expect_error_contains").asText();
            if (emitted.problems().isEmpty() || !emitted.problems().get(0).contains(wanted)) {
                problems.add("expected an error containing '" + wanted + "', got " + emitted.problems());
            }
        } else if (!emitted.problems().isEmpty()) {
            problems.add("unexpected errors " + emitted.problems());
        }
        JsonNode expected = vector.get("expect_metrics_in_order");
        if (expected != null && !expected.isNull()) {
            problems.addAll(MonitorVectorSupport.sameInOrder("emitted", MonitorVectorSupport.samples(emitted.series()),
                    MonitorVectorSupport.expected(expected, null)));
            if (functions.equals(List.of(MEMORY, UTILIZATION)) && !node.isEmpty() && index == 0) {
                problems.addAll(MonitorVectorSupport.sameIgnoringOrder("exported",
                        exported(nvml, node, legacy), MonitorVectorSupport.expected(expected,
                                MonitorVectorSupport.exportedLabels(vector))));
            }
        }
        return problems;
    }

    /** GPUs 0..index; the vector's GPU at {@code index}, the others never queried. */
    private static FakeNvml nvml(JsonNode spec, int index) {
        List<GpuInfo> gpus = new ArrayList<>();
        long used = spec.path("memory_used").asLong(0);
        for (int i = 0; i < index; i++) {
            gpus.add(new GpuInfo(i, "GPU-unused-" + i, "unused", 0, 0, "", 0, false));
        }
        gpus.add(new GpuInfo(index, spec.path("uuid").asText(), spec.path("name").asText(),
                spec.path("memory_total").asLong(used), used, "", 0, false));
        FakeNvml nvml = FakeNvml.withGpus(gpus);
        nvml.setUtilization(index, new Utilization(spec.path("utilization_gpu").asInt(0),
                spec.path("utilization_memory").asInt(0)));
        return nvml;
    }

    private static List<Sample> exported(FakeNvml nvml, String node, boolean legacy) {
        MonitorConfig config = MonitorConfig.defaults(node).withLegacyMetrics(legacy)
                .withHookPath(MonitorConfig.DEFAULT_HOOK_PATH.resolve("unused-by-scrapes"));
        VgpuMonitor monitor = VgpuMonitor.create(config, Optional.of(nvml), new InMemoryPodDirectory(),
                Clock.systemUTC());
        List<Sample> out = new ArrayList<>(MonitorVectorSupport.samples(monitor.collector().collect()));
        out.removeIf(s -> s.name().equals(HamiMetrics.BUILD_INFO.name()));
        return out;
    }
}
