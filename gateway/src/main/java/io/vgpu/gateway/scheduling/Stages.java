package io.vgpu.gateway.scheduling;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.concurrent.CompletionStage;

/**
 * Bridges port stages (Hazelcast, fabric8) into Vert.x futures that resume on the caller's Vert.x
 * context (STYLE.md §4.5), so each step of a request runs on its verticle's event loop, never on the
 * store's or the HTTP client's threads. Outside Vert.x (unit tests) the stage's own thread is used.
 */
final class Stages {

    private Stages() {
    }

    /** {@code stage} as a future whose callbacks run on the current Vert.x context, if there is one. */
    static <T> Future<T> onContext(CompletionStage<T> stage) {
        Context context = Vertx.currentContext();
        return context == null ? Future.fromCompletionStage(stage) : Future.fromCompletionStage(stage, context);
    }
}
