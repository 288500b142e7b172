package io.vgpu.state.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.GoJsonReader.Field;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static io.vgpu.state.codec.GoJsonReader.INT32_MAX;
import static io.vgpu.state.codec.GoJsonReader.INT32_MIN;
import static io.vgpu.state.codec.GoJsonReader.INT64_MAX;
import static io.vgpu.state.codec.GoJsonReader.INT64_MIN;
import static io.vgpu.state.codec.GoJsonReader.UINT32_MAX;
import static io.vgpu.state.codec.GoJsonReader.UINT64_MAX;
import static java.math.BigInteger.ZERO;

/**
 * The JSON forms of {@code hami.io/node-nvidia-register} (HAMi's {@code []*DeviceInfo}) and
 * {@code hami.io/node-nvidia-score} ({@code DevicePairScores}), in both directions.
 *
 * <p>Reading binds like Go's {@code json.Unmarshal} (see {@link GoJsonReader}). The deprecated
 * {@code migtemplate} key is ignored like an unknown key. A {@code null} array element is refused:
 * HAMi would dereference the nil pointer and crash.
 *
 * <p>Writing produces Go's {@code json.Marshal} bytes: fields in struct order, every {@code DeviceInfo}
 * field {@code omitempty} (0, "", false and empty lists vanish), MIG profile fields always present.
 */
final class RegisterJson {

    private static final String DEVICE = "DeviceInfo";
    private static final String PROFILE = "MigProfile";
    private static final String PLACEMENT = "MigPlacement";

    private RegisterJson() {
    }

    /** Unmarshals the register annotation; an empty list is a valid result here. */
    static Decoded<List<GpuDevice>> readDevices(String json) {
        return GoJsonReader.tree(json).flatMap(root -> {
            try {
                List<GpuDevice> devices = new ArrayList<>();
                List<JsonNode> elements = GoJsonReader.array(root, "[]*device.DeviceInfo", e -> e);
                for (int i = 0; i < elements.size(); i++) {
                    JsonNode e = elements.get(i);
                    if (e.isNull()) {
                        return Decoded.<List<GpuDevice>>err("device entry " + i + " is null");
                    }
                    devices.add(device(e));
                }
                return Decoded.ok(List.copyOf(devices));
            } catch (GoJsonReader.Mismatch m) {
                return Decoded.err(m.getMessage());
            }
        });
    }

    /**
     * Unmarshals pair scores into {@code uuid -> (other uuid -> score)}. When a UUID appears twice the
     * first entry wins, as HAMi attaches the first match to the device.
     */
    static Decoded<Map<String, Map<String, Integer>>> readPairScores(String json) {
        return GoJsonReader.tree(json).flatMap(root -> {
            try {
                Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
                for (JsonNode e : GoJsonReader.array(root, "device.DevicePairScores", e -> e)) {
                    if (e.isNull()) {
                        continue; // a null struct element stays the zero value: no UUID, no scores
                    }
                    GoJsonReader.requireObject(e, "device.DevicePairScore");
                    String uuid = "";
                    Map<String, Integer> scores = new LinkedHashMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> it = e.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> kv = it.next();
                        if (kv.getKey().equalsIgnoreCase("uuid")) {
                            uuid = GoJsonReader.string(kv.getValue(), uuid, new Field("DevicePairScore", "uuid"));
                        } else if (kv.getKey().equalsIgnoreCase("score")) {
                            scores = scores(kv.getValue());
                        }
                    }
                    out.putIfAbsent(uuid, Map.copyOf(scores));
                }
                return Decoded.ok(out);
            } catch (GoJsonReader.Mismatch m) {
                return Decoded.err(m.getMessage());
            }
        });
    }

    private static Map<String, Integer> scores(JsonNode v) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (v.isNull()) {
            return out;
        }
        if (!v.isObject()) {
            throw new Field("DevicePairScore", "score").mismatch(v, "map[string]int");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> kv = it.next();
            Field f = new Field("DevicePairScore", "score");
            out.put(kv.getKey(), kv.getValue().isNull() ? 0
                    : GoJsonReader.integer(kv.getValue(), 0, f, "int", INT64_MIN, INT64_MAX));
        }
        return out;
    }

    private static GpuDevice device(JsonNode node) {
        GoJsonReader.requireObject(node, "device.DeviceInfo");
        String id = "";
        int index = 0;
        int count = 0;
        int devmem = 0;
        int devcore = 0;
        String type = "";
        int numa = 0;
        String mode = "";
        List<MigProfile> profiles = List.of();
        boolean health = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> kv = it.next();
            JsonNode v = kv.getValue();
            String key = kv.getKey();
            Field f = new Field(DEVICE, key);
            switch (key.toLowerCase(Locale.ROOT)) {
                case "id" -> id = GoJsonReader.string(v, id, f);
                case "index" -> index = GoJsonReader.integer(v, index, f, "uint", ZERO, UINT64_MAX);
                case "count" -> count = GoJsonReader.integer(v, count, f, "int32", INT32_MIN, INT32_MAX);
                case "devmem" -> devmem = GoJsonReader.integer(v, devmem, f, "int32", INT32_MIN, INT32_MAX);
                case "devcore" -> devcore = GoJsonReader.integer(v, devcore, f, "int32", INT32_MIN, INT32_MAX);
                case "type" -> type = GoJsonReader.string(v, type, f);
                case "numa" -> numa = GoJsonReader.integer(v, numa, f, "int", INT64_MIN, INT64_MAX);
                case "mode" -> mode = GoJsonReader.string(v, mode, f);
                case "migprofiles" -> profiles = GoJsonReader.array(v, "[]device.MigProfile", p -> profile(p, key));
                case "health" -> health = GoJsonReader.bool(v, health, f);
                case "devicevendor" -> GoJsonReader.string(v, "", f); // forced to NVIDIA by the reader
                case "custominfo" -> GoJsonReader.anyObject(v, f);
                default -> {
                    // unknown keys (and the deprecated migtemplate) are ignored, as in Go
                }
            }
        }
        return new GpuDevice(id, index, count, devmem, devcore, type, numa, mode, profiles, health);
    }

    private static MigProfile profile(JsonNode node, String parentKey) {
        if (node.isNull()) {
            return new MigProfile("", 0, 0, 0, List.of()); // a null struct element is the zero value
        }
        GoJsonReader.requireObject(node, "device.MigProfile");
        String name = "";
        int memory = 0;
        int core = 0;
        int slices = 0;
        List<MigPlacement> placements = List.of();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> kv = it.next();
            JsonNode v = kv.getValue();
            String key = kv.getKey();
            Field f = new Field(PROFILE, parentKey + "." + key);
            switch (key.toLowerCase(Locale.ROOT)) {
                case "name" -> name = GoJsonReader.string(v, name, f);
                case "memorymb" -> memory = GoJsonReader.integer(v, memory, f, "int32", INT32_MIN, INT32_MAX);
                case "core" -> core = GoJsonReader.integer(v, core, f, "int32", INT32_MIN, INT32_MAX);
                case "slicecount" -> slices = GoJsonReader.integer(v, slices, f, "uint32", ZERO, UINT32_MAX);
                case "placements" -> placements = GoJsonReader.array(v, "[]device.MigPlacement",
                        p -> placement(p, parentKey + "." + key));
                default -> {
                    // instanceCount is json:"-" in Go and every other key is unknown: ignored
                }
            }
        }
        return new MigProfile(name, memory, core, slices, placements);
    }

    private static MigPlacement placement(JsonNode node, String parentPath) {
        if (node.isNull()) {
            return new MigPlacement(0, 0);
        }
        GoJsonReader.requireObject(node, "device.MigPlacement");
        int start = 0;
        int size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> kv = it.next();
            Field f = new Field(PLACEMENT, parentPath + "." + kv.getKey());
            switch (kv.getKey().toLowerCase(Locale.ROOT)) {
                case "start" -> start = GoJsonReader.integer(kv.getValue(), start, f, "uint32", ZERO, UINT32_MAX);
                case "size" -> size = GoJsonReader.integer(kv.getValue(), size, f, "uint32", ZERO, UINT32_MAX);
                default -> {
                    // unknown key: ignored
                }
            }
        }
        return new MigPlacement(start, size);
    }

    /**
     * Go {@code json.Marshal(ListDeviceScore)}: {@code [{"uuid":"…","score":{"…":n,…}},…]} in the given
     * device order, each score map with its keys sorted (Go marshals maps that way).
     */
    static String writePairScores(Map<String, Map<String, Integer>> scores) {
        StringBuilder out = new StringBuilder("[");
        for (Map.Entry<String, Map<String, Integer>> device : scores.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append("{\"uuid\":");
            GoJsonText.appendString(out, device.getKey());
            out.append(",\"score\":{");
            boolean first = true;
            for (Map.Entry<String, Integer> other : new TreeMap<>(device.getValue()).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                GoJsonText.appendString(out, other.getKey()).append(':').append(other.getValue());
            }
            out.append("}}");
        }
        return out.append(']').toString();
    }

    /** Go {@code json.Marshal([]*DeviceInfo)} of the fields the plugin sets. */
    static String writeDevices(List<GpuDevice> devices) {
        StringBuilder out = new StringBuilder(128 * Math.max(1, devices.size())).append('[');
        for (int i = 0; i < devices.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            writeDevice(out, devices.get(i));
        }
        return out.append(']').toString();
    }

    private static void writeDevice(StringBuilder out, GpuDevice d) {
        out.append('{');
        boolean[] first = {true};
        stringField(out, first, "id", d.id());
        intField(out, first, "index", d.index());
        intField(out, first, "count", d.count());
        intField(out, first, "devmem", d.devmem());
        intField(out, first, "devcore", d.devcore());
        stringField(out, first, "type", d.type());
        intField(out, first, "numa", d.numa());
        stringField(out, first, "mode", d.mode());
        if (!d.migProfiles().isEmpty()) {
            name(out, first, "migProfiles").append('[');
            for (int i = 0; i < d.migProfiles().size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                writeProfile(out, d.migProfiles().get(i));
            }
            out.append(']');
        }
        if (d.health()) {
            name(out, first, "health").append("true");
        }
        out.append('}');
    }

    /** Go {@code json.Marshal(MigProfile)}: no omitempty; {@code instanceCount} is never written. */
    static StringBuilder writeProfile(StringBuilder out, MigProfile p) {
        out.append("{\"name\":");
        GoJsonText.appendString(out, p.name());
        out.append(",\"memoryMB\":").append(p.memoryMB())
                .append(",\"core\":").append(p.core())
                .append(",\"sliceCount\":").append(p.sliceCount())
                .append(",\"placements\":[");
        for (int i = 0; i < p.placements().size(); i++) {
            MigPlacement pl = p.placements().get(i);
            if (i > 0) {
                out.append(',');
            }
            out.append("{\"start\":").append(pl.start()).append(",\"size\":").append(pl.size()).append('}');
        }
        return out.append("]}");
    }

    private static void stringField(StringBuilder out, boolean[] first, String name, String value) {
        if (!value.isEmpty()) {
            GoJsonText.appendString(name(out, first, name), value);
        }
    }

    private static void intField(StringBuilder out, boolean[] first, String name, int value) {
        if (value != 0) {
            name(out, first, name).append(value);
        }
    }

    private static StringBuilder name(StringBuilder out, boolean[] first, String name) {
        if (!first[0]) {
            out.append(',');
        }
        first[0] = false;
        return out.append('"').append(name).append("\":");
    }
}
