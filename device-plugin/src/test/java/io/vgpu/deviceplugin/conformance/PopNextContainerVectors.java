package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationEntries;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import java.util.List;

/** {@code pop_next_container}: take the first non-empty entry, map it to its container, empty it. */
public final class PopNextContainerVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        Outcome<AllocationEntries.Popped> popped = AllocationEntries.pop(NodeJson.entries(in.path("entries")),
                NodeJson.containers(in.path("init_containers")), NodeJson.containers(in.path("containers")));
        if (expected.has("error_contains")) {
            return c.expectError("error", expected.get("error_contains").asText(), popped.isOk() ? null : popped.error()).list();
        }
        if (!popped.isOk()) {
            return c.fail("unexpected error: " + popped.error()).list();
        }
        c.expect("container", expected.path("container").asText(), popped.value().taken().container().name());
        c.expect("devices", expected.path("devices"), NodeJson.json(popped.value().taken().devices()));
        c.expect("entries_after", expected.path("entries_after"), NodeJson.entriesJson(popped.value().entriesAfter()));
        return c.list();
    }
}
