package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.deviceplugin.config.NodeConfigFile;
import io.vgpu.deviceplugin.core.register.NodeOverrides;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code node_config_override}: the per-node JSON merged over the device config. The plugin models the
 * {@code nvidia:} keys it uses; a key it does not model (e.g. the webhook's {@code defaultGPUNum}) must
 * come out unchanged, which is what the plugin guarantees by not touching it.
 */
public final class NodeConfigOverrideVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) throws Exception {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        JsonNode base = in.path("base");
        NvidiaSettings defaults = NvidiaSettings.defaults();
        NvidiaSettings settings = new NvidiaSettings(
                base.path("resourceCountName").asText(defaults.resourceCountName()),
                base.path("deviceSplitCount").asInt(defaults.deviceSplitCount()),
                base.path("deviceMemoryScaling").asDouble(defaults.deviceMemoryScaling()),
                base.path("deviceCoreScaling").asDouble(defaults.deviceCoreScaling()),
                base.path("preConfiguredDeviceMemory").asLong(0),
                base.path("libCudaLogLevel").asText(""),
                base.path("enableNumaTopology").asBoolean(false),
                base.path("disableCoreLimit").asBoolean(false));
        JsonNode file = in.get("config_json");
        NodeSettings node = file == null || file.isNull()
                ? NodeOverrides.withoutNodeConfig(settings)
                : NodeOverrides.apply(settings, NodeConfigFile.parse(NodeJson.MAPPER.writeValueAsString(file)), in.path("NODE_NAME").asText());
        ObjectNode got = NodeJson.MAPPER.createObjectNode();
        NvidiaSettings n = node.nvidia();
        got.put("resourceCountName", n.resourceCountName()).put("deviceSplitCount", n.deviceSplitCount())
                .put("deviceMemoryScaling", n.deviceMemoryScaling()).put("deviceCoreScaling", n.deviceCoreScaling())
                .put("preConfiguredDeviceMemory", n.preConfiguredDeviceMemory()).put("libCudaLogLevel", n.libCudaLogLevel())
                .put("enableNumaTopology", n.enableNumaTopology()).put("disableCoreLimit", n.disableCoreLimit());
        for (Map.Entry<String, JsonNode> e : iterable(expected.path("effective"))) {
            JsonNode actual = got.has(e.getKey()) ? got.get(e.getKey()) : base.get(e.getKey());
            if (e.getValue().isNumber() && actual != null && actual.isNumber()) {
                c.expect("effective." + e.getKey(), e.getValue().asDouble(), actual.asDouble());
            } else {
                c.expect("effective." + e.getKey(), e.getValue().asText(), actual == null ? null : actual.asText());
            }
        }
        c.expect("operating_mode", expected.path("operating_mode").asText(), node.operatingMode());
        c.expect("enable_get_preferred_allocation", expected.path("enable_get_preferred_allocation").asBoolean(),
                node.enableGetPreferredAllocation());
        if (expected.has("filter_devices")) {
            JsonNode filter = expected.get("filter_devices");
            c.expect("filter_devices.uuid", NodeJson.strings(filter.path("uuid")), node.filter().uuids());
            List<Integer> indices = new ArrayList<>();
            filter.path("index").forEach(i -> indices.add(i.asInt()));
            c.expect("filter_devices.index", indices, node.filter().indices());
        }
        return c.list();
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }
}
