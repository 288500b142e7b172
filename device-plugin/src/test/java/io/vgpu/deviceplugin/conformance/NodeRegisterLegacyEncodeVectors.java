package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.util.ArrayList;
import java.util.List;

/** {@code node_register_legacy_encode}: the colon format of schedulers up to v2.7. */
public final class NodeRegisterLegacyEncodeVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        List<GpuDevice> devices = new ArrayList<>();
        vector.path("input").path("device_infos").forEach(n -> devices.add(NodeJson.gpuDevice(n)));
        return new Checks().expect("annotation_value", vector.path("expected").path("annotation_value").asText(),
                NodeRegisterCodec.encodeLegacy(devices)).list();
    }
}
