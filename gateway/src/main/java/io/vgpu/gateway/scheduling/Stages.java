package io.vgpu.gateway.scheduling;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * Bridges port stages (Hazelcast, fabric8) into Vert.x futures that resume on the caller's Vert.x
 * context (STYLE.md §4.5), so each step of a request runs on its verticle's event loop, never on the
 * store's or the HTTP client's threads, and moves heavy CPU steps off that loop. Outside Vert.x (unit
 * tests) the stage's own thread is used.
 */
public final class Stages {

    private Stages() {
    }

    /**
     * Runs CPU work whose cost grows with the request (decoding a pod of thousands of containers, deciding over
     * thousands of nodes) on a worker thread when called on an event loop, so the loop keeps serving other
     * requests (DESIGN.md §4); the future completes back on the caller's context. Elsewhere (a worker already, or
     * no Vert.x: unit tests) it runs at once. A thrown exception fails the future.
     */
    public static <T> Future<T> offLoop(Callable<T> work) {
        Context context = Vertx.currentContext();
        if (context == null || !Context.isOnEventLoopThread()) {
            return now(work);
        }
        return context.executeBlocking(work, false);
    }

    /**
     * {@link #offLoop} when {@code heavy}, else at once: for work whose size is known up front (a request body), so
     * that small requests, nearly all of them, pay no thread hop.
     */
    public static <T> Future<T> offLoopIf(boolean heavy, Callable<T> work) {
        return heavy ? offLoop(work) : now(work);
    }

    private static <T> Future<T> now(Callable<T> work) {
        try {
            return Future.succeededFuture(work.call());
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
    }

    /** {@code stage} as a future whose callbacks run on the current Vert.x context, if there is one. */
    static <T> Future<T> onContext(CompletionStage<T> stage) {
        Context context = Vertx.currentContext();
        return context == null ? Future.fromCompletionStage(stage) : Future.fromCompletionStage(stage, context);
    }
}
