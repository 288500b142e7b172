package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.allocate.PreferredAllocation;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/** {@code preferred_select}: pick kubelet IDs that land on the annotated GPUs. */
public final class PreferredSelectVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        List<ContainerDevice> annotated = NodeJson.strings(in.path("annotated_uuids")).stream()
                .map(u -> new ContainerDevice(0, u, "NVIDIA", 0, 0)).toList();
        Outcome<List<String>> selected = PreferredAllocation.select(NodeJson.strings(in.path("available")),
                NodeJson.strings(in.get("must_include")), annotated, in.path("allocation_size").asInt());
        if (expected.has("error_contains")) {
            return c.expectError("error", expected.get("error_contains").asText(), selected.isOk() ? null : selected.error()).list();
        }
        if (!selected.isOk()) {
            return c.fail("unexpected error: " + selected.error()).list();
        }
        List<String> want = NodeJson.strings(expected.path("device_ids"));
        if (Checks.orderFree(expected)) {
            c.expectSameElements("device_ids", want, selected.value());
        } else {
            c.expect("device_ids", want, selected.value());
        }
        return c.list();
    }
}
