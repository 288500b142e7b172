package io.vgpu.state.store;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.core.OperationTimeoutException;
import com.hazelcast.spi.exception.RetryableException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import io.vgpu.state.model.ClusterStateUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Bridges Hazelcast's async results to plain {@link CompletableFuture}s and maps "cannot serve now" failures to
 * {@link ClusterStateUnavailableException}. {@link #call} completes them on the store's callback executor; {@link
 * #direct} on the thread that completed the Hazelcast call, one thread hop fewer for a caller that takes the result
 * to its own thread anyway. Neither ever runs on the common ForkJoin pool (tiny on 2 cores: DEPENDENCIES.md
 * pitfall 6).
 */
final class Stages {

    /** Runs a dependent on the thread that completed the Hazelcast call. */
    private static final Executor INLINE = Runnable::run;

    private final Executor callbacks;

    /**
     * @param callbacks where results are delivered; once it rejects work (shut down), results are delivered on the
     *                  completing thread instead, so that no stage is left pending forever
     */
    Stages(Executor callbacks) {
        this.callbacks = task -> {
            try {
                callbacks.execute(task);
            } catch (RejectedExecutionException e) {
                task.run();
            }
        };
    }

    /**
     * Calls {@code call} (a synchronous throw becomes a failed stage), then maps its result with {@code mapper} on
     * the callback executor.
     *
     * @param what what is being done, for error messages
     */
    <T, R> CompletableFuture<R> call(String what, Supplier<CompletionStage<T>> call, Function<T, R> mapper) {
        return bridge(what, call, mapper, true);
    }

    /**
     * {@link #call}, but maps and completes on the thread that completed the Hazelcast call (a Hazelcast response or
     * partition thread; the caller's own when the call completed at once), saving the hop through the callback
     * executor. Only for a cheap, non-blocking {@code mapper} that calls nothing of the caller's and starts no
     * Hazelcast call (hand follow-up writes to {@link #afterwards}); and only where every caller attaches its
     * continuations with an executor or a Vert.x context of its own, since a continuation attached without one would
     * run on Hazelcast's thread.
     */
    <T, R> CompletableFuture<R> direct(String what, Supplier<CompletionStage<T>> call, Function<T, R> mapper) {
        return bridge(what, call, mapper, false);
    }

    /** Runs {@code followUp} (e.g. the pod-index write after a decision) on the callback executor, off the caller's path. */
    void afterwards(Runnable followUp) {
        callbacks.execute(followUp);
    }

    private <T, R> CompletableFuture<R> bridge(String what, Supplier<CompletionStage<T>> call, Function<T, R> mapper,
                                               boolean onCallbacks) {
        CompletableFuture<R> out = new CompletableFuture<>();
        CompletionStage<T> stage;
        try {
            stage = call.get();
        } catch (RuntimeException e) {
            out.completeExceptionally(translate(what, e));
            return out;
        }
        BiConsumer<T, Throwable> deliver = (value, error) -> {
            if (error != null) {
                out.completeExceptionally(translate(what, error));
                return;
            }
            try {
                out.complete(mapper.apply(value));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        };
        // not whenComplete: Hazelcast runs a plain dependent of its futures on the common ForkJoin pool (pitfall 6)
        stage.whenCompleteAsync(deliver, onCallbacks ? callbacks : INLINE);
        return out;
    }

    /** Unwraps completion wrappers; "cannot serve now" causes become {@link ClusterStateUnavailableException}. */
    static Throwable translate(String what, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null && !(cause instanceof RetryableException)) {
            cause = cause.getCause();
        }
        if (cause instanceof SplitBrainProtectionException
                || cause instanceof IndeterminateOperationStateException
                || cause instanceof HazelcastInstanceNotActiveException
                || cause instanceof OperationTimeoutException
                || cause instanceof RetryableException) {
            return new ClusterStateUnavailableException(what + ": " + cause.getMessage(), cause);
        }
        return cause;
    }
}
