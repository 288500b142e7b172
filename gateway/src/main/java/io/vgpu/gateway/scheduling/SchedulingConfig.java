package io.vgpu.gateway.scheduling;

import java.time.Duration;

/**
 * Timing and bounds of the filter and bind orchestration.
 *
 * @param reservationTtl   how long a filter reservation lives unconfirmed (below kube-scheduler's 30 s assume timeout)
 * @param reserveAttempts  how many ranked nodes a filter tries when the shared state refuses (lost races)
 * @param nodeLockTimeout  HAMi's {@code --node-lock-timeout}: a lock older than this may be taken over
 * @param nodeLockWait     how long a contended bind waits for the node lock (below the extender httpTimeout)
 * @param lockRetryEvery   how often a waiting bind re-tries the lock
 * @param callTimeout      timeout of one call to the shared state or the API server
 */
public record SchedulingConfig(Duration reservationTtl, int reserveAttempts, Duration nodeLockTimeout,
                               Duration nodeLockWait, Duration lockRetryEvery, Duration callTimeout) {

    /** Defaults: 25 s reservations, 3 attempts, HAMi's 5 min lock timeout and 28 s lock wait. */
    public static final SchedulingConfig DEFAULTS = new SchedulingConfig(Duration.ofSeconds(25), 3,
            Duration.ofMinutes(5), Duration.ofSeconds(28), Duration.ofMillis(100), Duration.ofSeconds(10));

    /** Validates the bounds. */
    public SchedulingConfig {
        if (reserveAttempts < 1) {
            throw new IllegalArgumentException("reserveAttempts must be >= 1");
        }
        if (reservationTtl.isNegative() || reservationTtl.isZero()) {
            throw new IllegalArgumentException("reservationTtl must be positive");
        }
    }
}
