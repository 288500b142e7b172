package io.vgpu.hamicore;

import io.vgpu.hamicore.testing.UsageInfoCalls;
import io.vgpu.hamicore.testing.RegionImages;
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

import io.vgpu.hamicore.RegionLoad.Loaded;
import io.vgpu.hamicore.RegionLoad.Rejected;

/**
 * The {@code loader}, {@code accessor} and {@code accessor_write} vectors of
 * {@code hamicore-monitor-vectors/1}: region files are written byte-exactly from the vectors and
 * read back through {@link SharedRegions}.
 */
final class MonitorVectors {

    static final List<String> KINDS = List.of("loader", "accessor", "accessor_write");
    private static final Pattern CALL = Pattern.compile("(\\w+)(?:\\((\\d+)\\))?");

    private final Path scratch;
    private int sequence;

    MonitorVectors(Path scratch) {
        this.scratch = scratch;
    }

    List<String> check(JsonNode vector) throws IOException {
        return switch (vector.path("kind").asText()) {
            case "loader" -> loader(vector);
            case "accessor" -> accessor(vector);
            case "accessor_write" -> accessorWrite(vector);
            default -> List.of("not a kind of this module: " + vector.path("kind").asText());
        };
    }

    private Path freshDirectory() throws IOException {
        return Files.createDirectories(scratch.resolve("v" + (++sequence)));
    }

    private List<String> loader(JsonNode vector) throws IOException {
        Path dir = freshDirectory().resolve("container");
        JsonNode listing = vector.get("dir");
        if (listing != null && !listing.isNull()) {
            Files.createDirectories(dir);
            for (JsonNode entry : listing) {
                Files.write(dir.resolve(entry.get("name").asText()), fileBytes(entry));
            }
        }
        RegionLoad load = SharedRegions.loadDirectory(dir);
        JsonNode expect = vector.get("expect");
        String result = expect.get("result").asText();
        List<String> problems = new ArrayList<>();
        switch (result) {
            case "v1", "v0" -> {
                RegionLayout wanted = result.equals("v1") ? RegionLayout.V1 : RegionLayout.V0;
                if (!(load instanceof Loaded loaded)) {
                    return List.of("expected a " + result + " region, got " + load);
                }
                if (loaded.region().layout() != wanted) {
                    problems.add("layout " + loaded.region().layout() + ", expected " + wanted);
                }
                problems.addAll(accessors(loaded.region(), expect.get("accessors")));
            }
            case "none" -> {
                if (!(load instanceof RegionLoad.Absent)) {
                    problems.add("expected no region (not an error), got " + load);
                }
            }
            case "error" -> {
                if (!(load instanceof Rejected rejected)) {
                    problems.add("expected an error, got " + load);
                } else if (expect.hasNonNull("error_contains")
                        && !rejected.message().contains(expect.get("error_contains").asText())) {
                    problems.add("error '" + rejected.message() + "' lacks '" + expect.get("error_contains").asText() + "'");
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
            String mismatch = UsageInfoCalls.mismatch(e.getKey(), UsageInfoCalls.get(region, m.group(1), idx), e.getValue());
            if (mismatch != null) {
                problems.add(mismatch);
            }
        }
        return problems;
    }

    private static byte[] fileBytes(JsonNode entry) {
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

    private SharedRegion mapVectorRegion(JsonNode vector, Path file) throws IOException {
        Files.write(file, RegionImages.zeroFilledWith(vector.get("file_size").intValue(), vector.get("writes")));
        RegionLayout layout = layoutOf(vector);
        RegionLoad load = SharedRegions.mapAs(file, layout);
        return load.loadedRegion().orElseThrow(() -> new IllegalStateException("cannot map: " + load));
    }

    private static RegionLayout layoutOf(JsonNode vector) {
        return switch (vector.get("layout").asText()) {
            case "v1" -> RegionLayout.V1;
            case "v0" -> RegionLayout.V0;
            default -> throw new IllegalArgumentException("unknown layout " + vector.get("layout"));
        };
    }

    private List<String> accessor(JsonNode vector) throws IOException {
        SharedRegion region = mapVectorRegion(vector, freshDirectory().resolve("region.cache"));
        JsonNode call = vector.get("call");
        String method = call.get("method").asText();
        Object actual = UsageInfoCalls.get(region, method, call.path("idx").asInt(0));
        String mismatch = UsageInfoCalls.mismatch(method, actual, vector.get("expect"));
        return mismatch == null ? List.of() : List.of(mismatch);
    }

    /** After the setter, the file must equal the initial image plus expect_writes, byte for byte. */
    private List<String> accessorWrite(JsonNode vector) throws IOException {
        Path file = freshDirectory().resolve("region.cache");
        SharedRegion region = mapVectorRegion(vector, file);
        JsonNode call = vector.get("call");
        UsageInfoCalls.set(region, call.get("method").asText(), call.get("arg"));

        byte[] expected = RegionImages.zeroFilledWith(vector.get("file_size").intValue(), vector.get("writes"));
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
    }

    /** The structured {@code expect_region_after} read back through the accessors. */
    private static List<String> regionAfter(SharedRegion region, JsonNode after) {
        List<String> problems = new ArrayList<>();
        if (after == null || after.isNull()) {
            return problems;
        }
        for (Map.Entry<String, JsonNode> e : after.properties()) {
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "recent_kernel" -> expectEqual(problems, e.getKey(), region.recentKernel(), v.asLong());
                case "utilization_switch" -> expectEqual(problems, e.getKey(), region.utilizationSwitch(), v.asLong());
                case "limit", "sm_limit" -> {
                    for (int d = 0; d < v.size(); d++) {
                        long actual = e.getKey().equals("limit") ? region.deviceMemoryLimit(d) : region.deviceSmLimit(d);
                        expectEqual(problems, e.getKey() + "[" + d + "]", actual, RegionImages.exact(v.get(d)).longValue());
                    }
                }
                default -> problems.add("unchecked expect_region_after field " + e.getKey());
            }
        }
        return problems;
    }

    private static void expectEqual(List<String> problems, String what, long actual, long expected) {
        if (actual != expected) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
