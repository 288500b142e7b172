package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.health.XidPolicy;

import java.util.List;

/** {@code xid_health_config}: which XIDs the health check ignores. */
public final class XidHealthConfigVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        XidPolicy policy = XidPolicy.fromEnv(in.path("DP_DISABLE_HEALTHCHECKS").asText(), in.path("DP_ENABLE_HEALTHCHECKS").asText());
        c.expect("all_disabled", expected.path("all_disabled").asBoolean(), policy.allDisabled());
        expected.path("is_disabled").fields().forEachRemaining(e ->
                c.expect("is_disabled[" + e.getKey() + "]", e.getValue().asBoolean(), policy.isDisabled(Long.parseLong(e.getKey()))));
        return c.list();
    }
}
