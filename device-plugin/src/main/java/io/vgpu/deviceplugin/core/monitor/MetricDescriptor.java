package io.vgpu.deviceplugin.core.monitor;

import java.util.List;
import java.util.Objects;

/**
 * One Prometheus metric family as HAMi's collector describes it ({@code prometheus.NewDesc}): name,
 * help text and the variable label names in HAMi's order. All of HAMi's monitor metrics are gauges.
 *
 * @param name       the exposed metric name, e.g. {@code hami_vgpu_memory_used_bytes}
 * @param help       the HELP text
 * @param labelNames variable label names, in HAMi's order (the constant {@code zone} label is not listed)
 */
public record MetricDescriptor(String name, String help, List<String> labelNames) {

    public MetricDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(help, "help");
        labelNames = List.copyOf(labelNames);
    }

    static MetricDescriptor gauge(String name, String help, String... labelNames) {
        return new MetricDescriptor(name, help, List.of(labelNames));
    }

    /** One series of this family. */
    MetricSeries series(double value, String... labelValues) {
        return new MetricSeries(this, List.of(labelValues), value);
    }
}
