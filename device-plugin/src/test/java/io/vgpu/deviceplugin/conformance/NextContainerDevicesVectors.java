package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationEntries;
import io.vgpu.deviceplugin.core.allocate.ContainerTake;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.List;
import java.util.Map;

/** {@code next_container_devices}: the read-only lookup of the next container to allocate. */
public final class NextContainerDevicesVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        Outcome<ContainerTake> next = AllocationEntries.decode(Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, in.path("annotation").asText()))
                .then(entries -> AllocationEntries.next(entries, NodeJson.containers(in.path("init_containers")),
                        NodeJson.containers(in.path("containers"))));
        if (expected.has("error_contains")) {
            return c.expectError("error", expected.get("error_contains").asText(), next.isOk() ? null : next.error()).list();
        }
        if (!next.isOk()) {
            return c.fail("unexpected error: " + next.error()).list();
        }
        c.expect("container", expected.path("container").asText(), next.value().container().name());
        c.expect("devices", expected.path("devices"), NodeJson.json(next.value().devices()));
        return c.list();
    }
}
