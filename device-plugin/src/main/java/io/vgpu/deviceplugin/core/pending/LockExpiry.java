package io.vgpu.deviceplugin.core.pending;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.GoDuration;

import java.time.Duration;

/**
 * The node-lock expiry {@code HAMI_NODELOCK_EXPIRE} (Go duration text, default 5 minutes; invalid or
 * empty keeps the default). The scheduler enforces it; the plugin reports it in its start-up log.
 */
public final class LockExpiry {

    /** HAMi's default expiry. */
    public static final Duration DEFAULT = Duration.ofMinutes(5);

    private LockExpiry() {
    }

    /** The expiry for the env value (null = unset). */
    public static Duration fromEnv(String value) {
        if (value == null || value.isEmpty()) {
            return DEFAULT;
        }
        Decoded<Duration> parsed = GoDuration.parse(value);
        return parsed.isOk() && !parsed.value().isNegative() && !parsed.value().isZero() ? parsed.value() : DEFAULT;
    }
}
