package io.vgpu.gateway.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.dra.ExistingClaims;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads {@link ExistingClaims} from the Pod JSON of an AdmissionReview (fields the core's pod does not model). */
final class ExistingClaimsJson {

    private ExistingClaimsJson() {
    }

    static ExistingClaims of(JsonNode pod) {
        JsonNode spec = pod == null ? null : pod.path("spec");
        if (spec == null || !spec.isObject()) {
            return ExistingClaims.none(0, 0);
        }
        JsonNode claims = spec.get("resourceClaims");
        Optional<List<String>> names = Optional.empty();
        if (claims != null && claims.isArray()) {
            List<String> n = new ArrayList<>();
            claims.forEach(c -> n.add(c.path("name").asText("")));
            names = Optional.of(n);
        }
        return new ExistingClaims(names, hasClaims(spec.get("initContainers")), hasClaims(spec.get("containers")));
    }

    private static List<Boolean> hasClaims(JsonNode containers) {
        List<Boolean> out = new ArrayList<>();
        if (containers != null && containers.isArray()) {
            containers.forEach(c -> out.add(c.path("resources").path("claims").isArray()));
        }
        return out;
    }
}
