package io.vgpu.deviceplugin.conformance;

import io.vgpu.hamicore.testing.RegionImages;
import io.vgpu.hamicore.testing.UsageInfoCalls;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vgpu.hamicore.RegionLayout;
import io.vgpu.hamicore.RegionLoad;
import io.vgpu.hamicore.SharedRegion;
import io.vgpu.hamicore.SharedRegions;

/**
 * Kind {@code loader}: a container directory written byte-exactly from the vector, loaded with
 * hamicore-jni's {@code SharedRegions.loadDirectory} (HAMi's {@code loadCache}), the way the
 * monitor's lister loads it.
 */
public final class LoaderVectors implements NodeVectorFamily {

    private static final Pattern CALL = Pattern.compile("(\\w+)(?:\\((\\d+)\\))?");

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws IOException {
        Path root = MonitorVectorSupport.scratch();
        try {
            return check(vector, root.resolve("uid1_ctr"));
        } finally {
            MonitorVectorSupport.deleteTree(root);
        }
    }

    private static List<String> check(JsonNode vector, Path dir) throws IOException {
        JsonNode listing = vector.get("dir");
        if (listing != null && !listing.isNull()) {
            Files.createDirectories(dir);
            for (JsonNode entry : listing) {
                Files.write(dir.resolve(entry.get("name").asText()), bytes(entry));
            }
        }
        RegionLoad load = SharedRegions.loadDirectory(dir);
        JsonNode expect = vector.get("expect");
        String result = expect.get("result").asText();
        List<String> problems = new ArrayList<>();
        switch (result) {
            case "v1", "v0" -> {
                if (!(load instanceof RegionLoad.Loaded loaded)) {
                    return List.of("expected a " + result + " region, got " + load);
                }
                RegionLayout wanted = result.equals("v1") ? RegionLayout.V1 : RegionLayout.V0;
                if (loaded.region().layout() != wanted) {
                    problems.add("layout " + loaded.region().layout() + ", expected " + wanted);
                }
                problems.addAll(accessors(loaded.region(), expect.get("accessors")));
            }
            case "none" -> {
                if (!(load instanceof RegionLoad.Absent)) {
                    problems.add("expected no region yet (not an error), got " + load);
                }
            }
            case "error" -> {
                if (!(load instanceof RegionLoad.Rejected rejected)) {
                    problems.add("expected an error, got " + load);
                } else if (expect.hasNonNull("error_contains")
                        && !rejected.message().contains(expect.get("error_contains").asText())) {
                    problems.add("error '" + rejected.message() + "' lacks '" + expect.get("error_contains").asText()
                            + "'");
                }
            }
            default -> problems.add("unknown expected result " + result);
        }
        return problems;
    }

    /** {@code "DeviceMemoryLimit(1)": 2147483648} style expectations. */
    private static List<String> accessors(SharedRegion region, JsonNode accessors) {
        List<String> problems = new ArrayList<>();
        if (accessors == null || accessors.isNull()) {
            return problems;
        }
        for (Map.Entry<String, JsonNode> e : accessors.properties()) {
            Matcher m = CALL.matcher(e.getKey());
            if (!m.matches()) {
                problems.add("cannot parse accessor " + e.getKey());
                continue;
            }
            int idx = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            String mismatch = UsageInfoCalls.mismatch(e.getKey(), UsageInfoCalls.get(region, m.group(1), idx),
                    e.getValue());
            if (mismatch != null) {
                problems.add(mismatch);
            }
        }
        return problems;
    }

    private static byte[] bytes(JsonNode entry) {
        if (entry.has("content_utf8")) {
            return entry.get("content_utf8").asText().getBytes(StandardCharsets.UTF_8);
        }
        JsonNode file = entry.get("file");
        if (!"zero".equals(file.path("rest").asText("zero"))) {
            throw new IllegalArgumentException("unsupported 'rest' " + file.get("rest"));
        }
        byte[] image = RegionImages.zeroFilledWith(file.get("size").intValue(), file.get("writes"));
        ByteBuffer view = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        for (int at : new int[] {0, 4, 8}) {
            JsonNode v = file.get("int32_le_at_" + at);
            if (v != null && !v.isNull()) {
                view.putInt(at, RegionImages.exact(v).intValueExact());
            }
        }
        return image;
    }
}
