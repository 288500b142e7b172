package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.register.NodeRegister;

import java.util.List;

/** {@code float_truncation}: {@code devcore = int32(deviceCoreScaling * 100)}. */
public final class FloatTruncationVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        return new Checks().expect("devcore", vector.path("expected").path("devcore").asInt(),
                NodeRegister.devcore(vector.path("input").path("deviceCoreScaling").asDouble())).list();
    }
}
