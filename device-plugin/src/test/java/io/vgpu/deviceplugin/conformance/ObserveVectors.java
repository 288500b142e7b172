package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.vgpu.deviceplugin.core.monitor.FeedbackRule;
import io.vgpu.deviceplugin.core.monitor.UsageInfo;
import io.vgpu.deviceplugin.monitor.SharedRegionUsage;
import io.vgpu.hamicore.FakeSharedRegion;
import io.vgpu.hamicore.SharedRegion;

/**
 * Kind {@code observe}: one feedback tick ({@link FeedbackRule#observe}) over in-memory regions
 * built with the vector's priority, recent_kernel, utilization_switch and UUIDs, read back through
 * the region accessors. Run twice, in the given and in reversed container order: HAMi iterates a Go
 * map, so the outcome must not depend on order.
 */
public final class ObserveVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        List<String> problems = new ArrayList<>(tick(vector, false));
        problems.addAll(tick(vector, true));
        return problems;
    }

    private static List<String> tick(JsonNode vector, boolean reversed) {
        Map<String, SharedRegion> regions = new LinkedHashMap<>();
        for (JsonNode c : vector.get("containers")) {
            FakeSharedRegion.Builder b = FakeSharedRegion.v1()
                    .priority(c.get("priority").intValue())
                    .recentKernel(c.get("recent_kernel").intValue())
                    .utilizationSwitch(c.get("utilization_switch").intValue());
            int slot = 0;
            for (JsonNode uuid : c.get("uuids")) {
                b.uuid(slot++, uuid.asText());
            }
            regions.put(c.get("name").asText(), b.build());
        }
        List<UsageInfo> order = new ArrayList<>(regions.values().stream().map(SharedRegionUsage::of).toList());
        if (reversed) {
            Collections.reverse(order);
        }
        FeedbackRule.observe(order);

        List<String> problems = new ArrayList<>();
        vector.get("expect_after_one_tick").properties().forEach(e -> {
            SharedRegion r = regions.get(e.getKey());
            int rk = e.getValue().get("recent_kernel").intValue();
            int us = e.getValue().get("utilization_switch").intValue();
            if (r.recentKernel() != rk || r.utilizationSwitch() != us) {
                problems.add((reversed ? "reversed order: " : "") + e.getKey() + " has recent_kernel "
                        + r.recentKernel() + ", utilization_switch " + r.utilizationSwitch() + "; expected " + rk
                        + ", " + us);
            }
        });
        return problems;
    }
}
