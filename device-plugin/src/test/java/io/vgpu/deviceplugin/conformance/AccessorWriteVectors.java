package io.vgpu.deviceplugin.conformance;

import io.vgpu.hamicore.testing.RegionImages;
import io.vgpu.hamicore.testing.UsageInfoCalls;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.vgpu.hamicore.SharedRegion;

/**
 * Kind {@code accessor_write}: after the setter, the file must equal the initial image plus
 * {@code expect_writes} byte for byte (so nothing else was touched), and
 * {@code expect_region_after} must read back through the getters.
 */
public final class AccessorWriteVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws IOException {
        Path root = MonitorVectorSupport.scratch();
        try {
            Path file = root.resolve("region.cache");
            SharedRegion region = AccessorVectors.map(vector, file);
            JsonNode call = vector.get("call");
            UsageInfoCalls.set(region, call.get("method").asText(), call.get("arg"));

            byte[] expected = RegionImages.zeroFilledWith(MonitorVectorSupport.fileSize(vector), vector.get("writes"));
            RegionImages.apply(expected, vector.get("expect_writes"));
            byte[] actual = Files.readAllBytes(file);
            List<String> problems = new ArrayList<>();
            if (actual.length != expected.length) {
                problems.add("file is " + actual.length + " bytes, expected " + expected.length);
            }
            for (int i = 0; i < Math.min(actual.length, expected.length) && problems.size() < 8; i++) {
                if (actual[i] != expected[i]) {
                    problems.add("byte " + i + " is " + actual[i] + ", expected " + expected[i]);
                }
            }
            problems.addAll(regionAfter(region, vector.get("expect_region_after")));
            return problems;
        } finally {
            MonitorVectorSupport.deleteTree(root);
        }
    }

    private static List<String> regionAfter(SharedRegion region, JsonNode after) {
        List<String> problems = new ArrayList<>();
        if (after == null || after.isNull()) {
            return problems;
        }
        for (Map.Entry<String, JsonNode> e : after.properties()) {
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "recent_kernel" -> same(problems, e.getKey(), region.recentKernel(), v.asLong());
                case "utilization_switch" -> same(problems, e.getKey(), region.utilizationSwitch(), v.asLong());
                case "limit", "sm_limit" -> {
                    for (int d = 0; d < v.size(); d++) {
                        long actual = e.getKey().equals("limit") ? region.deviceMemoryLimit(d) : region.deviceSmLimit(d);
                        same(problems, e.getKey() + "[" + d + "]", actual,
                                RegionImages.exact(v.get(d)).longValue());
                    }
                }
                default -> problems.add("unchecked expect_region_after field " + e.getKey());
            }
        }
        return problems;
    }

    private static void same(List<String> problems, String what, long actual, long expected) {
        if (actual != expected) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
