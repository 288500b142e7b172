package io.vgpu.deviceplugin.core.monitor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One gauge sample as HAMi's collector sends it ({@code prometheus.MustNewConstMetric}): a family,
 * its label values in the family's label order, and the value. Label values may be any string
 * (HAMi's 40-byte UUID cut can leave NUL bytes in short UUIDs; they are kept, as HAMi keeps them).
 *
 * @param descriptor  the family
 * @param labelValues one value per {@link MetricDescriptor#labelNames()}, same order
 * @param value       the sample value
 */
public record MetricSeries(MetricDescriptor descriptor, List<String> labelValues, double value) {

    public MetricSeries {
        Objects.requireNonNull(descriptor, "descriptor");
        labelValues = List.copyOf(labelValues);
        if (labelValues.size() != descriptor.labelNames().size()) {
            throw new IllegalArgumentException(descriptor.name() + " has labels " + descriptor.labelNames()
                    + " but got " + labelValues.size() + " values");
        }
    }

    /** The family name. */
    public String name() {
        return descriptor.name();
    }

    /** Label name to value, in the family's label order. */
    public Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < labelValues.size(); i++) {
            labels.put(descriptor.labelNames().get(i), labelValues.get(i));
        }
        return labels;
    }
}
