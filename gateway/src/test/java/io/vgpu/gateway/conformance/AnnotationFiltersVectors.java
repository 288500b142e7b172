package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.fit.AnnotationFilters;
import io.vgpu.gateway.core.fit.ScoringWeights;

import java.util.List;
import java.util.Map;

/**
 * Kind {@code annotation_filters}: the pod-annotation selectors ({@code check_uuid}, {@code check_type},
 * {@code check_vgpu_mode}), the {@code hami.io/device-scoring-weights} parser and the numa-bind flag.
 */
public final class AnnotationFiltersVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        Map<String, String> annotations = VectorJson.stringMap(in.get("pod_annotations"));
        Mismatches m = new Mismatches();
        switch (testCase.path("op").asText()) {
            case "check_uuid" -> m.expect("allowed", expect.path("allowed").asBoolean(),
                    AnnotationFilters.of(annotations).allowsUuid(VectorJson.text(in, "device_id")));
            case "check_type" -> m.expect("allowed", expect.path("allowed").asBoolean(),
                    AnnotationFilters.of(annotations).allowsType(VectorJson.text(in, "device_type")));
            case "check_vgpu_mode" -> m.expect("allowed", expect.path("allowed").asBoolean(),
                    AnnotationFilters.of(annotations).allowsMode(VectorJson.text(in, "device_mode")));
            case "numa_bind_enabled" -> m.expect("enabled", expect.path("enabled").asBoolean(),
                    AnnotationFilters.numaBindEnabled(textOrNull(in.get("value"))));
            case "parse_device_scoring_weights" -> checkWeights(in, expect, m);
            default -> m.fail("unknown op " + testCase.path("op").asText());
        }
        return m.list();
    }

    private static void checkWeights(JsonNode in, JsonNode expect, Mismatches m) {
        ScoringWeights.Parsed parsed = ScoringWeights.parse(textOrNull(in.get("value")));
        m.expect("ok", expect.path("ok").asBoolean(), parsed.ok());
        if (expect.path("ok").asBoolean() && parsed.ok()) {
            JsonNode w = expect.path("weights");
            m.expect("weights", new ScoringWeights(w.path("slot").asLong(), w.path("core").asLong(),
                    w.path("memory").asLong()), parsed.weights());
        } else if (expect.has("error")) {
            m.expect("error", expect.path("error").asText(), parsed.error());
        }
    }

    private static String textOrNull(JsonNode v) {
        return v == null || v.isNull() ? null : v.asText();
    }
}
