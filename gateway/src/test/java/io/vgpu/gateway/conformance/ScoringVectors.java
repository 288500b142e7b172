package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.score.DeviceOrder;
import io.vgpu.gateway.core.score.DeviceScore;
import io.vgpu.gateway.core.score.NodeScore;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;

import java.util.ArrayList;
import java.util.List;

/**
 * Kind {@code scoring} ({@code device_scoring.json}): the device comparator, the float32 device score, a
 * scored sort of a node's devices, the node comparator and the default node score.
 */
public final class ScoringVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        Mismatches m = new Mismatches();
        switch (testCase.path("op").asText()) {
            case "device_less" -> {
                DeviceOrder order = new DeviceOrder(VectorJson.text(in, "policy"), numaBind(defaults, in));
                JsonNode a = in.path("a");
                JsonNode b = in.path("b");
                m.expect("less", expect.path("less").asBoolean(), order.less(
                        (float) a.path("score").asDouble(), a.path("numa").asInt(), a.path("used").asInt(),
                        a.path("index").asInt(), (float) b.path("score").asDouble(), b.path("numa").asInt(),
                        b.path("used").asInt(), b.path("index").asInt()));
            }
            case "device_score" -> m.expect("score", (float) expect.path("score").asDouble(),
                    DeviceScore.of(VectorJson.deviceUsage(in.path("device"), null), requests(in),
                            weights(defaults, in)));
            case "device_sort_last" -> checkSort(defaults, in, expect, m);
            case "node_less" -> m.expect("less", expect.path("less").asBoolean(), NodeScore.less(
                    VectorJson.text(in, "policy"), (float) in.path("a_score").asDouble(),
                    (float) in.path("b_score").asDouble()));
            case "node_default_score" -> m.expect("score", (float) expect.path("score").asDouble(),
                    NodeScore.defaultScore(VectorJson.deviceUsages(in.get("devices"), null)));
            default -> m.fail("unknown op " + testCase.path("op").asText());
        }
        return m.list();
    }

    private static void checkSort(JsonNode defaults, JsonNode in, JsonNode expect, Mismatches m) {
        List<DeviceUsage> list = VectorJson.deviceUsages(in.get("devices"), null);
        DeviceUsage[] devices = list.toArray(new DeviceUsage[0]);
        float[] scores = new float[devices.length];
        List<ContainerRequest> requests = requests(in);
        ScoringWeights weights = weights(defaults, in);
        for (int i = 0; i < devices.length; i++) {
            scores[i] = DeviceScore.of(devices[i], requests, weights);
        }
        new DeviceOrder(VectorJson.text(in, "policy"), numaBind(defaults, in)).sort(devices, scores, devices.length);
        List<String> ids = new ArrayList<>();
        for (DeviceUsage d : devices) {
            ids.add(d.id());
        }
        if (expect.has("sorted_ids")) {
            List<String> want = new ArrayList<>();
            expect.path("sorted_ids").forEach(id -> want.add(id.asText()));
            m.expect("sorted_ids", want, ids);
        }
        if (expect.has("last_id")) {
            m.expect("last_id", expect.path("last_id").asText(), ids.isEmpty() ? null : ids.get(ids.size() - 1));
        }
    }

    private static boolean numaBind(JsonNode defaults, JsonNode in) {
        JsonNode v = VectorJson.field(in, defaults, "numa_bind");
        return v != null && v.asBoolean(false);
    }

    private static List<ContainerRequest> requests(JsonNode in) {
        List<ContainerRequest> out = new ArrayList<>();
        in.path("requests").forEach(r -> out.add(VectorJson.request(r)));
        return out;
    }

    static ScoringWeights weights(JsonNode defaults, JsonNode in) {
        JsonNode w = VectorJson.field(in, defaults, "weights");
        if (w == null || !w.isObject()) {
            return ScoringWeights.DEFAULT;
        }
        return new ScoringWeights(w.path("slot").asLong(1), w.path("core").asLong(1), w.path("memory").asLong(1));
    }
}
