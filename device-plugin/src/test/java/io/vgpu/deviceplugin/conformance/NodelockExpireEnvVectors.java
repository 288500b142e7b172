package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.pending.LockExpiry;
import io.vgpu.state.codec.GoDuration;

import java.util.List;

/** {@code nodelock_expire_env}: {@code HAMI_NODELOCK_EXPIRE} → expiry. */
public final class NodelockExpireEnvVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        return new Checks().expect("timeout", vector.path("expected").path("timeout").asText(),
                GoDuration.format(LockExpiry.fromEnv(vector.path("input").path("HAMI_NODELOCK_EXPIRE").asText()))).list();
    }
}
