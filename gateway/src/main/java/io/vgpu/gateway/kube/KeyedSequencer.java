package io.vgpu.gateway.kube;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs asynchronous tasks one at a time per key, in call order, without blocking any thread: each task
 * starts when the previous task of its key has completed (successfully or not). Different keys run in
 * parallel. An idle key holds no memory. Thread-safe.
 */
final class KeyedSequencer {

    private final Map<String, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();

    /** Queues {@code task} behind the tasks of {@code key}; the result completes with the task's. */
    <T> CompletionStage<T> run(String key, Supplier<? extends CompletionStage<T>> task) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> previous = tails.put(key, mine);
        CompletableFuture<Void> start = previous == null ? CompletableFuture.completedFuture(null) : previous;
        CompletableFuture<T> result = start.thenCompose(ignored -> invoke(task));
        result.whenComplete((value, failure) -> {
            tails.remove(key, mine);
            mine.complete(null);
        });
        return result;
    }

    /** Keys with a task running or queued. */
    int activeKeys() {
        return tails.size();
    }

    private static <T> CompletableFuture<T> invoke(Supplier<? extends CompletionStage<T>> task) {
        try {
            return task.get().toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
