package io.vgpu.loadtest.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop load: {@code streams} independent request streams (each a kube-scheduler, which sends the next
 * request only when the previous one is answered), run for a warm-up and then a measured window. Everything runs
 * on one context of the client's Vert.x instance, so the steps may keep plain counters.
 */
final class ClosedLoop {

    private ClosedLoop() {
    }

    /** One step of one stream; the stream continues once the returned future completes. */
    interface Step {
        /**
         * @param stream   the stream number
         * @param measured whether this step starts inside the measured window
         */
        Future<?> next(int stream, boolean measured);
    }

    /**
     * The measured window in {@link System#nanoTime()} terms.
     *
     * @param from  first instant measured
     * @param until first instant no longer measured
     */
    record Window(long from, long until) {

        boolean contains(long nanos) {
            return nanos >= from && nanos < until;
        }

        double seconds() {
            return (until - from) / 1e9;
        }
    }

    /** A window that starts after {@code warmup} from now and lasts {@code measure}. */
    static Window window(Duration warmup, Duration measure) {
        long t0 = System.nanoTime();
        return new Window(t0 + warmup.toNanos(), t0 + warmup.toNanos() + measure.toNanos());
    }

    /** Runs the streams until the window ends and every stream's last step has completed. */
    static Window run(Vertx vertx, int streams, Window window, Step step) throws InterruptedException {
        Context context = vertx.getOrCreateContext();
        CountDownLatch done = new CountDownLatch(streams);
        context.runOnContext(v -> {
            for (int s = 0; s < streams; s++) {
                loop(context, window, s, step, done);
            }
        });
        if (!done.await((window.until() - System.nanoTime()) / 1_000_000_000L + 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the load streams did not finish");
        }
        return window;
    }

    private static void loop(Context context, Window window, int stream, Step step, CountDownLatch done) {
        long now = System.nanoTime();
        if (now >= window.until()) {
            done.countDown();
            return;
        }
        Future<?> f;
        try {
            f = step.next(stream, now >= window.from());
        } catch (RuntimeException e) {
            f = Future.failedFuture(e);
        }
        f.onComplete(x -> context.runOnContext(v -> loop(context, window, stream, step, done)));
    }
}
