package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.fit.PairScores;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Shared JSON plumbing of the Fit and scoring runners ({@code nvidia_fit}, {@code calc_score}). */
final class FitVectorSupport {

    static final String MEMORY_RESOURCE = "nvidia.com/gpumem";
    static final String CORE_RESOURCE = "nvidia.com/gpucores";

    private FitVectorSupport() {
    }

    /** {@code {"GPU-a": {"GPU-b": 50}}} → pair scores; null → none. */
    static PairScores pairScores(JsonNode json) {
        Map<String, Map<String, Integer>> out = new HashMap<>();
        if (json != null && json.isObject()) {
            json.fields().forEachRemaining(row -> {
                Map<String, Integer> r = new HashMap<>();
                row.getValue().fields().forEachRemaining(e -> r.put(e.getKey(), e.getValue().asInt()));
                out.put(row.getKey(), r);
            });
        }
        return new PairScores(out);
    }

    /**
     * Namespace quota state {@code {"<ns>": {"<resource>": {"used","limit","limitSet"}}}} (the shape of
     * {@code quota.json}) as a {@link QuotaBook}; null → {@link QuotaGate#NONE}. A flat
     * {@code {"<resource>": {...}}} object (resource names contain '/') is taken as the state of
     * {@code podNamespace}.
     */
    static QuotaGate quota(JsonNode json, int memoryFactor, String podNamespace) {
        if (json == null || !json.isObject()) {
            return QuotaGate.NONE;
        }
        QuotaBook book = new QuotaBook(MEMORY_RESOURCE, CORE_RESOURCE, memoryFactor);
        Iterator<Map.Entry<String, JsonNode>> entries = json.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            if (entry.getKey().contains("/")) {
                addEntry(book, podNamespace, entry.getKey(), entry.getValue());
            } else {
                entry.getValue().fields().forEachRemaining(res ->
                        addEntry(book, entry.getKey(), res.getKey(), res.getValue()));
            }
        }
        return book;
    }

    /** The only namespace a quota state names, or null when it names none or several. */
    static String onlyNamespace(JsonNode json) {
        if (json == null || !json.isObject() || json.size() != 1) {
            return null;
        }
        String name = json.fieldNames().next();
        return name.contains("/") ? null : name;
    }

    private static void addEntry(QuotaBook book, String namespace, String resource, JsonNode e) {
        if (e.path("limitSet").asBoolean(false)) {
            book.setLimit(namespace, resource, e.path("limit").asLong());
        }
        long used = e.path("used").asLong();
        if (resource.equals(MEMORY_RESOURCE)) {
            book.addUsage(namespace, used, 0);
        } else if (resource.equals(CORE_RESOURCE)) {
            book.addUsage(namespace, 0, used);
        }
    }

    /** A list of per-container allocation lists. */
    static List<List<ContainerDevice>> containers(JsonNode json) {
        List<List<ContainerDevice>> out = new ArrayList<>();
        if (json != null && json.isArray()) {
            json.forEach(c -> out.add(VectorJson.containerDevices(c)));
        }
        return out;
    }

    /**
     * Compares an expected allocation list with the actual one: same length, and every field present in an
     * expected element equals the actual element's (so {@code type} or {@code idx} may be omitted).
     */
    static void expectDevices(String what, JsonNode expected, List<ContainerDevice> actual, boolean anyOrder,
                              Mismatches m) {
        ArrayNode actualJson = VectorJson.MAPPER.createArrayNode();
        actual.forEach(d -> actualJson.add(VectorJson.containerDeviceJson(d, true)));
        if (expected == null || !expected.isArray() || expected.size() != actual.size()) {
            m.fail(what + ": expected " + expected + " but was " + actualJson);
            return;
        }
        List<JsonNode> remaining = new ArrayList<>();
        actualJson.forEach(remaining::add);
        for (int i = 0; i < expected.size(); i++) {
            JsonNode want = expected.get(i);
            int at = -1;
            if (anyOrder) {
                for (int j = 0; j < remaining.size() && at < 0; j++) {
                    if (fieldsMatch(want, remaining.get(j))) {
                        at = j;
                    }
                }
            } else if (fieldsMatch(want, remaining.get(0))) {
                at = 0;
            }
            if (at < 0) {
                m.fail(what + ": expected " + expected + " but was " + actualJson);
                return;
            }
            remaining.remove(at);
        }
    }

    private static boolean fieldsMatch(JsonNode want, JsonNode actual) {
        Iterator<String> names = want.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!VectorJson.sameJson(want.get(n), actual.get(n))) {
                return false;
            }
        }
        return true;
    }

    /** The actual allocation as JSON, for messages. */
    static ArrayNode allocationJson(List<List<ContainerDevice>> allocation) {
        ArrayNode out = VectorJson.MAPPER.createArrayNode();
        for (List<ContainerDevice> c : allocation) {
            ArrayNode list = out.addArray();
            c.forEach(d -> list.add(VectorJson.containerDeviceJson(d, true)));
        }
        return out;
    }

    /** An object field as a possibly empty object. */
    static ObjectNode object(JsonNode json) {
        return json != null && json.isObject() ? (ObjectNode) json : VectorJson.MAPPER.createObjectNode();
    }
}
