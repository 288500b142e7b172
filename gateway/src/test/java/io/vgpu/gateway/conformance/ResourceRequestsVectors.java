package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.model.ContainerRequest;

import java.util.List;
import java.util.Optional;

/** {@code resource_requests.json}: {@code config} + {@code container} → {@code request} or null (spec §4.2). */
public final class ResourceRequestsVectors implements VectorFamily {

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode input = testCase.path("input");
        RequestDeriver deriver = new RequestDeriver(AdmissionJson.nvidiaConfig(
                VectorJson.merged(defaults.get("config"), input.get("config"))));
        Optional<ContainerRequest> actual = deriver.derive(VectorJson.container(input.path("container")));
        JsonNode expected = testCase.path("expect").get("request");
        return new Mismatches()
                .expectJson("request", expected, actual.<JsonNode>map(VectorJson::requestJson).orElse(null))
                .list();
    }
}
