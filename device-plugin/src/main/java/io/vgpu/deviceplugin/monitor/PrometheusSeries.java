package io.vgpu.deviceplugin.monitor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import io.vgpu.deviceplugin.core.monitor.MetricDescriptor;
import io.vgpu.deviceplugin.core.monitor.MetricSeries;

/**
 * Turns the monitor's series into Prometheus client snapshots: one gauge family per name, in
 * first-emission order, with optional constant labels (HAMi's {@code zone="vGPU"} wrapper).
 * A repeated label set keeps its first value (Go's registry would fail the whole scrape instead;
 * one bad region must not hide every other series).
 */
final class PrometheusSeries {

    private PrometheusSeries() {
    }

    /** Snapshots of {@code series}, each series also carrying {@code constantLabels}. */
    static MetricSnapshots snapshots(List<MetricSeries> series, Map<String, String> constantLabels) {
        Map<String, Family> families = new LinkedHashMap<>();
        for (MetricSeries s : series) {
            families.computeIfAbsent(s.name(), n -> new Family(s.descriptor())).add(s, constantLabels);
        }
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        families.values().forEach(f -> out.metricSnapshot(f.snapshot()));
        return out.build();
    }

    /** The union of two snapshot sets (their names must differ). */
    static MetricSnapshots concat(MetricSnapshots first, MetricSnapshots second) {
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        first.forEach(out::metricSnapshot);
        second.forEach(out::metricSnapshot);
        return out.build();
    }

    private static final class Family {
        private final MetricDescriptor descriptor;
        private final List<GaugeDataPointSnapshot> points = new ArrayList<>();
        private final Set<Labels> seen = new HashSet<>();

        Family(MetricDescriptor descriptor) {
            this.descriptor = descriptor;
        }

        void add(MetricSeries s, Map<String, String> constantLabels) {
            Labels.Builder labels = Labels.builder();
            s.labels().forEach(labels::label);
            constantLabels.forEach(labels::label);
            Labels built = labels.build();
            if (seen.add(built)) {
                points.add(GaugeDataPointSnapshot.builder().labels(built).value(s.value()).build());
            }
        }

        GaugeSnapshot snapshot() {
            GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(descriptor.name()).help(descriptor.help());
            points.forEach(b::dataPoint);
            return b.build();
        }
    }
}
