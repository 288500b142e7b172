package io.vgpu.gateway.kube;

import java.util.function.LongSupplier;

/**
 * Client-side rate limit of API calls ({@code --kube-qps}/{@code --kube-burst}, like client-go's token bucket):
 * {@code burst} tokens, refilled at {@code qps} per second. A call that finds no token reserves the next one
 * and learns how long to wait, so waiting is a scheduled continuation, never a blocked thread. Thread-safe;
 * the clock is injected.
 */
final class TokenBucket {

    private static final double NANOS_PER_SECOND = 1e9;

    private final double qps;
    private final int burst;
    private final LongSupplier nanoTime;
    private double tokens;
    private long last;

    /**
     * @param qps      tokens per second; {@code <= 0} means unlimited
     * @param burst    bucket size (and initial fill)
     * @param nanoTime monotonic clock in nanoseconds
     */
    TokenBucket(double qps, int burst, LongSupplier nanoTime) {
        this.qps = qps;
        this.burst = burst;
        this.nanoTime = nanoTime;
        this.tokens = burst;
        this.last = nanoTime.getAsLong();
    }

    /** Whether a token is free now (nothing is taken): a best-effort call made now would go. */
    synchronized boolean hasToken() {
        if (qps <= 0) {
            return true;
        }
        return refilled(nanoTime.getAsLong()) >= 1;
    }

    /** The tokens there are at {@code now}: those left, plus what {@code qps} refilled since, up to {@code burst}. */
    private double refilled(long now) {
        return Math.min(burst, tokens + (now - last) * qps / NANOS_PER_SECOND);
    }

    /**
     * Takes a token, possibly in advance.
     *
     * @param maxWaitNanos the longest the caller accepts to wait
     * @return nanoseconds to wait before the call may go (0 = now), or -1 when the wait would exceed
     *         {@code maxWaitNanos} (then nothing is taken)
     */
    synchronized long reserve(long maxWaitNanos) {
        if (qps <= 0) {
            return 0;
        }
        long now = nanoTime.getAsLong();
        tokens = refilled(now);
        last = now;
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        long wait = (long) Math.ceil((1 - tokens) / qps * NANOS_PER_SECOND);
        if (wait > maxWaitNanos) {
            return -1;
        }
        tokens -= 1;
        return wait;
    }
}
