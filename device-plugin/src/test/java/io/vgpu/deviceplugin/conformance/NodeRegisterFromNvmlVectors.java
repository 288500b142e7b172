package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeRegister;
import io.vgpu.deviceplugin.core.register.RegisterSettings;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * {@code node_register_from_nvml}: NVML facts + knobs → the exact register annotation. The vectors give
 * devices in index order, which is also the plugin's stable order, so the bytes compare exactly.
 */
public final class NodeRegisterFromNvmlVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode cfg = in.path("config");
        JsonNode expected = vector.path("expected");
        RegisterSettings settings = new RegisterSettings(cfg.path("device_split_count").asInt(),
                cfg.path("device_memory_scaling").asDouble(), cfg.path("device_core_scaling").asDouble(),
                cfg.path("operating_mode").asText(), cfg.path("pre_configured_device_memory_mib").asLong());
        List<GpuFacts> scan = new ArrayList<>();
        Map<String, Boolean> health = new LinkedHashMap<>();
        for (JsonNode d : in.path("nvml_devices")) {
            JsonNode mem = d.get("memory_total_bytes");
            JsonNode numa = d.get("numa_node");
            String uuid = d.path("uuid").asText();
            scan.add(new GpuFacts(uuid, d.path("index").asInt(), d.path("name").asText(),
                    mem == null || mem.isNull() ? OptionalLong.empty() : OptionalLong.of(mem.asLong()),
                    numa == null || numa.isNull() ? OptionalInt.empty() : OptionalInt.of(numa.asInt()), true));
            health.put(uuid, NodeRegister.healthy(d.path("kubelet_health").asText()));
        }
        NodeRegister.Result result = NodeRegister.build(scan, health, settings);
        c.expect("annotation_key", expected.path("annotation_key").asText(), HamiAnnotations.NODE_NVIDIA_REGISTER);
        c.expect("annotation_value", expected.path("annotation_value").asText(), NodeRegisterCodec.encode(result.devices()));
        if (expected.has("legacy_v27_equivalent")) {
            c.expect("legacy_v27_equivalent", expected.get("legacy_v27_equivalent").asText(), NodeRegisterCodec.encodeLegacy(result.devices()));
        }
        c.expect("skipped_uuids", NodeJson.strings(expected.get("skipped_uuids")), result.skipped());
        return c.list();
    }
}
