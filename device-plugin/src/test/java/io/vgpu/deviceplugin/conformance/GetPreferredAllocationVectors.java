package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.deviceplugin.core.allocate.PreferredRequest;

import java.util.ArrayList;
import java.util.List;

/** {@code get_preferred_allocation}: the whole RPC over the pending pod's annotation. */
public final class GetPreferredAllocationVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        ObjectNode pod = NodeJson.MAPPER.createObjectNode();
        pod.put("namespace", "default").put("name", "gpa-pod").put("uid", "gpa-uid");
        pod.putObject("annotations").put("hami.io/vgpu-devices-to-allocate", in.path("pod_to_allocate_annotation").asText());
        pod.set("init_containers", in.get("init_containers"));
        pod.set("containers", in.get("containers"));
        ObjectNode config = NodeJson.MAPPER.createObjectNode();
        config.putArray("device_list_strategy").add("envvar");
        AllocateFixture fx = new AllocateFixture(config, pod, null);
        List<PreferredRequest> requests = new ArrayList<>();
        for (JsonNode r : in.path("container_requests")) {
            requests.add(new PreferredRequest(NodeJson.strings(r.get("available_deviceIDs")),
                    NodeJson.strings(r.get("must_include_deviceIDs")), r.path("allocation_size").asInt()));
        }
        List<List<String>> got = fx.service.preferred(requests).toCompletableFuture().join();
        JsonNode want = expected.path("container_responses");
        c.expect("container_responses.size", want.size(), got.size());
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            if (Checks.orderFree(expected)) {
                c.expectSameElements("container_responses[" + i + "]", NodeJson.strings(want.get(i)), got.get(i));
            } else {
                c.expect("container_responses[" + i + "]", NodeJson.strings(want.get(i)), got.get(i));
            }
        }
        return c.list();
    }
}
