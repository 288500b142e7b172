package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationEntries;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/** {@code pod_annotation_codec}: encode the entries, decode them back (trailing empty entry kept). */
public final class PodAnnotationCodecVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        String encoded = AllocationEntries.encode(NodeJson.entries(vector.path("input").path("entries")));
        c.expect("encoded", expected.path("encoded").asText(), encoded);
        Decoded<List<List<ContainerDevice>>> back = PodDevicesCodec.decode(encoded);
        if (!back.isOk()) {
            return c.fail("decode back failed: " + back.error()).list();
        }
        c.expect("decoded_back", expected.path("decoded_back"), NodeJson.entriesJson(back.value()));
        return c.list();
    }
}
