package io.vgpu.deviceplugin.health;

import java.util.Objects;

/**
 * Why a GPU was marked unhealthy, and whether it may ever be healthy again before a restart.
 *
 * @param reason      for logs and Events, e.g. {@code XID 94}
 * @param recoverable the recovery check may bring it back after a quiet period; false: sticky until the
 *                    plugin restarts (HAMi's only behaviour)
 */
public record HealthCause(String reason, boolean recoverable) {

    /** Requires a reason. */
    public HealthCause {
        Objects.requireNonNull(reason, "reason");
    }

    /** A cause that never recovers without a restart. */
    public static HealthCause sticky(String reason) {
        return new HealthCause(reason, false);
    }
}
