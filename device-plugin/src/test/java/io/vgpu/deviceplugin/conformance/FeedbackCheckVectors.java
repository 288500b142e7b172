package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.vgpu.deviceplugin.core.monitor.ActivityCensus;

/**
 * Kind {@code feedback_check}: HAMi's {@code CheckBlocking} ({@link ActivityCensus#blocks}) and
 * {@code CheckPriority} ({@link ActivityCensus#contends}) on a given census; both are compared,
 * whichever the Go test asserted.
 */
public final class FeedbackCheckVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Map<String, List<Integer>> counts = new LinkedHashMap<>();
        vector.get("census").properties().forEach(e -> {
            List<Integer> perPriority = new ArrayList<>();
            e.getValue().forEach(n -> perPriority.add(n.intValue()));
            counts.put(e.getKey(), perPriority);
        });
        ActivityCensus census = ActivityCensus.of(counts);
        int priority = vector.get("priority").intValue();
        List<String> keys = new ArrayList<>();
        vector.get("device_uuids").forEach(u -> keys.add(u.asText()));

        List<String> problems = new ArrayList<>();
        boolean blocking = census.blocks(priority, keys);
        boolean contended = census.contends(priority, keys);
        JsonNode expect = vector.get("expect");
        if (blocking != expect.get("CheckBlocking").asBoolean()) {
            problems.add("CheckBlocking " + blocking + ", expected " + expect.get("CheckBlocking"));
        }
        if (contended != expect.get("CheckPriority").asBoolean()) {
            problems.add("CheckPriority " + contended + ", expected " + expect.get("CheckPriority"));
        }
        return problems;
    }
}
