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
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Bridges Hazelcast's async results to plain {@link CompletableFuture}s completed on the store's callback
 * executor, never on Hazelcast's threads nor on the common ForkJoin pool (which is tiny on 2 cores:
 * DEPENDENCIES.md pitfall 6), and maps "cannot serve now" failures to {@link ClusterStateUnavailableException}.
 */
final class Stages {

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
        CompletableFuture<R> out = new CompletableFuture<>();
        CompletionStage<T> stage;
        try {
            stage = call.get();
        } catch (RuntimeException e) {
            out.completeExceptionally(translate(what, e));
            return out;
        }
        stage.whenCompleteAsync((value, error) -> {
            if (error != null) {
                out.completeExceptionally(translate(what, error));
                return;
            }
            try {
                out.complete(mapper.apply(value));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        }, callbacks);
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
