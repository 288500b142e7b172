package io.vgpu.deviceplugin.kube;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs blocking fabric8 calls on a dedicated executor (never a Vert.x event loop) with a timeout; a failure
 * is the client's exception itself, a timeout says how long was waited.
 */
final class KubeCalls {

    private final Executor executor;
    private final Duration timeout;

    KubeCalls(Executor executor, Duration timeout) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    <T> CompletionStage<T> call(Supplier<T> request) {
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture.supplyAsync(request, executor)
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((value, error) -> {
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    if (cause == null) {
                        result.complete(value);
                    } else if (cause instanceof TimeoutException) {
                        result.completeExceptionally(new TimeoutException("Kubernetes API call timed out after " + timeout.toMillis() + " ms"));
                    } else {
                        result.completeExceptionally(cause);
                    }
                });
        return result;
    }
}
