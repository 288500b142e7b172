package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.util.List;

/** {@code node_register_legacy_decode}: the colon format as old schedulers read it. */
public final class NodeRegisterLegacyDecodeVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        Decoded<List<GpuDevice>> read = NodeRegisterCodec.decodeLegacy(vector.path("input").path("annotation_value").asText());
        if (expected.has("error")) {
            return c.expectError("error", expected.get("error").asText(), read.isOk() ? null : read.error()).list();
        }
        if (!read.isOk()) {
            return c.fail("unexpected error: " + read.error()).list();
        }
        NodeJson.expectDevices(c, expected.path("devices"), read.value());
        return c.list();
    }
}
