package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;

import java.time.OffsetDateTime;
import java.util.List;

/** {@code nodelock_parse}: the lock value the plugin reads to find its pod. */
public final class NodelockParseVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        Checks c = new Checks();
        JsonNode expected = vector.path("expected");
        Decoded<NodeLock> lock = NodeLockCodec.parse(vector.path("input").path("lock_value").asText());
        if (expected.has("error")) {
            return c.expectError("error", expected.get("error").asText(), lock.isOk() ? null : lock.error()).list();
        }
        if (!lock.isOk()) {
            return c.fail("unexpected error: " + lock.error()).list();
        }
        c.expect("time", OffsetDateTime.parse(expected.path("time").asText()).toInstant(), lock.value().time());
        c.expect("namespace", expected.path("namespace").asText(), lock.value().namespace());
        c.expect("name", expected.path("name").asText(), lock.value().name());
        return c.list();
    }
}
