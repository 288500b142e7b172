package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.NodeLockCodec;

import java.time.OffsetDateTime;
import java.util.List;

/** {@code nodelock_format}: the owner part and the full lock value. */
public final class NodelockFormatVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode in = vector.path("input");
        JsonNode expected = vector.path("expected");
        String ns = in.path("namespace").asText();
        String name = in.path("name").asText();
        if (in.has("sep")) {
            c.expect("joined", expected.path("joined").asText(), NodeLockCodec.podNamespaceName(ns, name, in.get("sep").asText()));
        }
        if (in.has("now_rfc3339")) {
            OffsetDateTime now = OffsetDateTime.parse(in.get("now_rfc3339").asText());
            c.expect("lock_value", expected.path("lock_value").asText(), NodeLockCodec.value(now.toInstant(), now.getOffset(), ns, name));
            c.expect("owner_suffix", expected.path("owner_suffix").asText(), NodeLockCodec.ownerSuffix(ns, name));
        }
        return c.list();
    }
}
