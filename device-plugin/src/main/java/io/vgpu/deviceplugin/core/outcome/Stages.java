package io.vgpu.deviceplugin.core.outcome;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/** Small helpers for the core services' {@link CompletionStage} pipelines. */
public final class Stages {

    private Stages() {
    }

    /** The cause behind the wrappers {@link CompletableFuture} adds. */
    public static Throwable unwrap(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The message of the unwrapped cause, or its class name when it has none. */
    public static String message(Throwable t) {
        Throwable cause = unwrap(t);
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    /**
     * Calls {@code call}; a synchronous throw becomes a failed stage (STYLE §4.8), so every pipeline
     * step can be composed without try/catch.
     */
    public static <T> CompletionStage<T> call(Supplier<? extends CompletionStage<T>> call) {
        try {
            CompletionStage<T> stage = call.get();
            return stage == null ? CompletableFuture.failedFuture(new IllegalStateException("port returned null")) : stage;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Maps success with {@code ok} and failure (its unwrapped message) with {@code failed}. */
    public static <T, R> CompletionStage<R> fold(CompletionStage<T> stage, Function<? super T, ? extends CompletionStage<R>> ok,
                                          Function<String, ? extends CompletionStage<R>> failed) {
        return stage.handle((value, error) -> error == null ? ok.apply(value) : failed.apply(message(error)))
                .thenCompose(Function.identity());
    }
}
