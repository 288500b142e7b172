package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.allocate.PreferredAllocation;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/** {@code align_to_kubelet_ids}: follow kubelet's chosen GPUs, keep memory and cores. */
public final class AlignToKubeletIdsVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        Outcome<List<ContainerDevice>> aligned = PreferredAllocation.alignToKubelet(NodeJson.devices(in.path("entry")),
                NodeJson.strings(in.path("kubelet_device_ids")));
        if (expected.has("error_contains")) {
            return c.expectError("error", expected.get("error_contains").asText(), aligned.isOk() ? null : aligned.error()).list();
        }
        if (!aligned.isOk()) {
            return c.fail("unexpected error: " + aligned.error()).list();
        }
        return c.expect("aligned_entry", expected.path("aligned_entry"), NodeJson.json(aligned.value())).list();
    }
}
