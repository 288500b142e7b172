package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.gpu.NvmlText;

import java.util.List;

/** {@code nvml_c_string}: NVML's NUL-terminated byte arrays. */
public final class NvmlCStringVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        JsonNode bytesJson = vector.path("input").path("bytes");
        byte[] bytes = new byte[bytesJson.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) bytesJson.get(i).asInt();
        }
        return new Checks().expect("string", vector.path("expected").path("string").asText(), NvmlText.cString(bytes)).list();
    }
}
