package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationEntries;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;
import java.util.Map;

/** {@code pod_annotation_decode}: the plugin's decode of the to-allocate annotation. */
public final class PodAnnotationDecodeVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        Outcome<List<List<ContainerDevice>>> decoded = AllocationEntries.decode(
                Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, vector.path("input").path("annotation").asText()));
        if (expected.has("error_contains")) {
            return c.expectError("error", expected.get("error_contains").asText(), decoded.isOk() ? null : decoded.error()).list();
        }
        if (!decoded.isOk()) {
            return c.fail("unexpected error: " + decoded.error()).list();
        }
        return c.expect("entries", expected.path("entries"), NodeJson.entriesJson(decoded.value())).list();
    }
}
