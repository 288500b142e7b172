package io.vgpu.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition with a bound, for tests that watch something they cannot get an event from. */
public final class Eventually {

    private static final long POLL_MILLIS = 50;

    private Eventually() {
    }

    /**
     * Polls {@code condition} until it holds.
     *
     * @return how long it took until it first held
     * @throws AssertionError when it did not hold within {@code bound}
     */
    public static Duration within(Duration bound, String what, BooleanSupplier condition) {
        return within(bound, Duration.ofMillis(POLL_MILLIS), what, condition);
    }

    /**
     * {@link #within(Duration, String, BooleanSupplier)}, asking every {@code every}: for a condition that turns
     * true within milliseconds (an HTTP answer on loopback), where the 50 ms default would add its own wait to each
     * of a test's many calls.
     */
    public static Duration within(Duration bound, Duration every, String what, BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > bound.toNanos()) {
                throw new AssertionError("not within " + bound.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Retries {@code assertion} until it passes.
     *
     * @return how long it took until it first passed
     * @throws AssertionError the assertion's last failure when it did not pass within {@code bound}
     */
    public static Duration passes(Duration bound, Runnable assertion) {
        long start = System.nanoTime();
        while (true) {
            try {
                assertion.run();
                return Duration.ofNanos(System.nanoTime() - start);
            } catch (AssertionError e) {
                if (System.nanoTime() - start > bound.toNanos()) {
                    throw e;
                }
                pause(e);
            }
        }
    }

    private static void pause(AssertionError last) {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            last.addSuppressed(e);
            throw last;
        }
    }
}
