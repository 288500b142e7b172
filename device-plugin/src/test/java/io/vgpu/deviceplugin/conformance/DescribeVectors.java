package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.vgpu.deviceplugin.core.monitor.HamiMetrics;
import io.vgpu.deviceplugin.core.monitor.MetricDescriptor;

/**
 * Kind {@code describe}: the families the collector registers ({@link HamiMetrics#describe}):
 * names included, the exact list in HAMi's order, and label names per family.
 */
public final class DescribeVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        List<MetricDescriptor> described = HamiMetrics.describe(vector.path("legacy").asBoolean(false));
        Map<String, List<String>> labels = new LinkedHashMap<>();
        described.forEach(d -> labels.put(d.name(), d.labelNames()));
        List<String> names = new ArrayList<>(labels.keySet());
        List<String> problems = new ArrayList<>();
        for (JsonNode name : vector.path("expect_descriptor_names_include")) {
            if (!labels.containsKey(name.asText())) {
                problems.add("missing family " + name.asText());
            }
        }
        JsonNode exact = vector.get("expect_descriptor_names_exact_by_code");
        if (exact != null && !exact.isNull()) {
            List<String> wanted = new ArrayList<>();
            exact.forEach(n -> wanted.add(n.asText()));
            if (!names.equals(wanted)) {
                problems.add("families " + names + ", expected " + wanted);
            }
        }
        JsonNode labelNames = vector.get("expect_label_names");
        if (labelNames != null && !labelNames.isNull()) {
            labelNames.properties().forEach(e -> {
                List<String> wanted = new ArrayList<>();
                e.getValue().forEach(n -> wanted.add(n.asText()));
                if (!wanted.equals(labels.get(e.getKey()))) {
                    problems.add(e.getKey() + " labels " + labels.get(e.getKey()) + ", expected " + wanted);
                }
            });
        }
        return problems;
    }
}
