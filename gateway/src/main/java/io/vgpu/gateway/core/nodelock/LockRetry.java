package io.vgpu.gateway.core.nodelock;

import io.vgpu.state.codec.GoDuration;

import java.time.Duration;

/**
 * The retry schedule HAMi uses around the lock and unlock patches ({@code wait.Backoff{Steps: 5,
 * Duration: 100ms, Factor: 2.0, Jitter: 0.5}}): at most {@code steps} attempts; before attempt
 * {@code n+1} wait {@code initial × factor^(n-1)}, stretched by up to {@code jitter} of itself.
 *
 * @param steps   maximum number of attempts
 * @param initial wait after the first failed attempt, before jitter
 * @param factor  growth of the wait per attempt
 * @param jitter  maximum extra fraction of each wait
 */
public record LockRetry(int steps, Duration initial, double factor, double jitter) {

    /** HAMi's {@code nodelock.DefaultStrategy}. */
    public static final LockRetry HAMI = new LockRetry(5, Duration.ofMillis(100), 2.0, 0.5);

    /**
     * The wait before attempt {@code attempt + 1}, given {@code random} in [0, 1) (injected so that the
     * schedule stays a pure function).
     *
     * @param attempt the attempt that just failed, from 1
     */
    public Duration delayAfter(int attempt, double random) {
        double base = initial.toNanos() * Math.pow(factor, attempt - 1);
        return Duration.ofNanos((long) (base + base * jitter * random));
    }

    /** Go's {@code %+v} of the backoff, as it appears in HAMi's error texts. */
    public String describe() {
        return "{Duration:" + GoDuration.format(initial) + " Factor:" + trim(factor)
                + " Jitter:" + trim(jitter) + " Steps:" + steps + " Cap:0s}";
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
