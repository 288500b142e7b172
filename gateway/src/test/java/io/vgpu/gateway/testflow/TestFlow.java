package io.vgpu.gateway.testflow;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxTestContext;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The gateway tests' one way to wait for an asynchronous answer without blocking the test thread: a test composes its
 * steps into one {@link Future} ({@link #step} bridges a port's {@link CompletionStage}, {@link #onContext} runs a
 * service call on a Vert.x context as a verticle would, {@link #eventually} waits for a condition on a timer) and
 * hands it to {@link #finish} with its last check.
 *
 * <p>Contract: the test context fails with the first failed step or the first failed assertion, whether the
 * assertion ran inside a {@code compose} step or in the final check (an {@link AssertionError} thrown in a step
 * fails that step's future); it completes only after the final check passed. The test's {@code @Timeout} (or
 * {@link io.vertx.junit5.VertxExtension}'s default) bounds the whole flow, so a step that never answers fails the
 * test instead of hanging it.
 */
public final class TestFlow {

    private static final long POLL_MILLIS = 50;

    private TestFlow() {
    }

    /** A port's stage as a step of the flow (callbacks run where the stage completes). */
    public static <T> Future<T> step(CompletionStage<T> stage) {
        return Future.fromCompletionStage(stage);
    }

    /**
     * Calls {@code call} on an event-loop context of {@code vertx}, as a verticle's handler does, and answers what it
     * answered; a synchronous throw becomes a failed future.
     */
    public static <T> Future<T> onContext(Vertx vertx, Supplier<Future<T>> call) {
        Promise<T> answer = Promise.promise();
        vertx.runOnContext(v -> {
            try {
                call.get().onComplete(answer);
            } catch (RuntimeException | AssertionError e) {
                answer.fail(e);
            }
        });
        return answer.future();
    }

    /**
     * A step that succeeds once {@code condition} answers true, asking again every 50 ms on a Vert.x timer (the test
     * thread never waits); fails with an {@link AssertionError} naming {@code what} when it did not within
     * {@code bound}, or with the condition's own failure.
     */
    public static Future<Void> eventually(Vertx vertx, Duration bound, String what,
                                          Supplier<Future<Boolean>> condition) {
        Promise<Void> held = Promise.promise();
        poll(vertx, System.nanoTime() + bound.toNanos(), bound, what, condition, held);
        return held.future();
    }

    private static void poll(Vertx vertx, long deadline, Duration bound, String what,
                             Supplier<Future<Boolean>> condition, Promise<Void> held) {
        Future<Boolean> asked;
        try {
            asked = condition.get();
        } catch (RuntimeException | AssertionError e) {
            asked = Future.failedFuture(e);
        }
        asked.onComplete(answer -> {
            if (answer.failed()) {
                held.fail(answer.cause());
            } else if (Boolean.TRUE.equals(answer.result())) {
                held.complete();
            } else if (System.nanoTime() > deadline) {
                held.fail(new AssertionError("not within " + bound.toSeconds() + " s: " + what));
            } else {
                vertx.setTimer(POLL_MILLIS, t -> poll(vertx, deadline, bound, what, condition, held));
            }
        });
    }

    /**
     * Ends the test's flow: runs {@code check} on the flow's value and completes {@code ctx}; fails {@code ctx} when
     * the flow failed or the check threw.
     */
    public static <T> void finish(VertxTestContext ctx, Future<T> flow, Check<T> check) {
        flow.onComplete(ctx.succeeding(value -> ctx.verify(() -> {
            check.accept(value);
            ctx.completeNow();
        })));
    }

    /**
     * A final check of a flow's value.
     *
     * @param <T> the flow's value
     */
    @FunctionalInterface
    public interface Check<T> {
        /** Asserts on {@code value}; throws to fail the test. */
        void accept(T value) throws Throwable;
    }
}
