package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.allocate.AllocationEntries;
import io.vgpu.deviceplugin.core.cluster.ContainerView;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;
import java.util.Map;

/** {@code pop_sequence}: decode, pop N times, re-encode what Allocate writes back. */
public final class PopSequenceVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        Outcome<List<List<ContainerDevice>>> decoded = AllocationEntries.decode(
                Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, in.path("annotation").asText()));
        if (!decoded.isOk()) {
            return c.fail("decode failed: " + decoded.error()).list();
        }
        List<List<ContainerDevice>> entries = decoded.value();
        List<ContainerView> init = NodeJson.containers(in.path("init_containers"));
        List<ContainerView> containers = NodeJson.containers(in.path("containers"));
        JsonNode results = expected.path("results");
        for (int i = 0; i < in.path("pops").asInt(); i++) {
            Outcome<AllocationEntries.Popped> popped = AllocationEntries.pop(entries, init, containers);
            JsonNode want = results.path(i);
            if (want.has("error_contains")) {
                c.expectError("pop " + i, want.get("error_contains").asText(), popped.isOk() ? null : popped.error());
                continue;
            }
            if (!popped.isOk()) {
                c.fail("pop " + i + ": unexpected error " + popped.error());
                continue;
            }
            c.expect("pop " + i + " container", want.path("container").asText(), popped.value().taken().container().name());
            c.expect("pop " + i + " devices", want.path("devices"), NodeJson.json(popped.value().taken().devices()));
            entries = popped.value().entriesAfter();
        }
        c.expect("reencoded_after_all_pops", expected.path("reencoded_after_all_pops").asText(), AllocationEntries.encode(entries));
        return c.list();
    }
}
