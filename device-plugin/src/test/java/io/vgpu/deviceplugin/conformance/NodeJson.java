package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.deviceplugin.core.cluster.ContainerView;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Conversions between the node vectors' JSON and the plugin's types. */
final class NodeJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private NodeJson() {
    }

    /** {@code {"uuid","type","usedmem","usedcores"}} → device (idx 0: not on the wire). */
    static ContainerDevice device(JsonNode n) {
        return new ContainerDevice(0, n.path("uuid").asText(), n.path("type").asText(),
                n.path("usedmem").asInt(), n.path("usedcores").asInt());
    }

    static List<ContainerDevice> devices(JsonNode array) {
        List<ContainerDevice> out = new ArrayList<>();
        array.forEach(n -> out.add(device(n)));
        return out;
    }

    static List<List<ContainerDevice>> entries(JsonNode array) {
        List<List<ContainerDevice>> out = new ArrayList<>();
        array.forEach(e -> out.add(devices(e)));
        return out;
    }

    static JsonNode json(ContainerDevice d) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("uuid", d.uuid()).put("type", d.type()).put("usedmem", d.usedmem()).put("usedcores", d.usedcores());
        return n;
    }

    static JsonNode json(List<ContainerDevice> devices) {
        ArrayNode a = MAPPER.createArrayNode();
        devices.forEach(d -> a.add(json(d)));
        return a;
    }

    static JsonNode entriesJson(List<List<ContainerDevice>> entries) {
        ArrayNode a = MAPPER.createArrayNode();
        entries.forEach(e -> a.add(json(e)));
        return a;
    }

    /** A string list; JSON null or missing → empty. */
    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    /** A string map; JSON null or missing → empty. */
    static Map<String, String> stringMap(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        if (object != null && object.isObject()) {
            object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    /** Containers given as names or as {@code {"name", "env"}} objects. */
    static List<ContainerView> containers(JsonNode array) {
        List<ContainerView> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode c : array) {
                out.add(c.isTextual() ? ContainerView.named(c.asText())
                        : new ContainerView(c.path("name").asText(), stringMap(c.get("env"))));
            }
        }
        return out;
    }

    /** The register JSON fields of a device, for comparisons with the keys a vector lists. */
    static ObjectNode json(GpuDevice d) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", d.id()).put("index", d.index()).put("count", d.count()).put("devmem", d.devmem())
                .put("devcore", d.devcore()).put("type", d.type()).put("numa", d.numa()).put("mode", d.mode())
                .put("health", d.health());
        return n;
    }

    /** A device from the register fields a vector lists (absent = zero value, as Go). */
    static GpuDevice gpuDevice(JsonNode n) {
        return new GpuDevice(n.path("id").asText(), n.path("index").asInt(), n.path("count").asInt(),
                n.path("devmem").asInt(), n.path("devcore").asInt(), n.path("type").asText(),
                n.path("numa").asInt(), n.path("mode").asText(""), List.of(), n.path("health").asBoolean());
    }

    /** Compares the expected device objects key by key (only the keys the vector lists). */
    static void expectDevices(Checks c, JsonNode expected, List<GpuDevice> actual) {
        c.expect("device count", expected.size(), actual.size());
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            ObjectNode got = json(actual.get(i));
            int index = i;
            expected.get(i).fields().forEachRemaining(e ->
                    c.expect("devices[" + index + "]." + e.getKey(), e.getValue().asText(), got.path(e.getKey()).asText()));
        }
    }
}
