package io.vgpu.deviceplugin.core.outcome;

import java.util.Objects;
import java.util.function.Function;

/**
 * The result of one device-plugin rule: a value, or the message HAMi would put in its error. Expected
 * rejections (no pending entry, a count mismatch, a selection that cannot be made) are outcomes, never
 * exceptions; messages are HAMi's text where the vectors pin it.
 *
 * @param <T> the value's type
 */
public sealed interface Outcome<T> permits Outcome.Ok, Outcome.Failed {

    /** A value. */
    static <T> Outcome<T> ok(T value) {
        return new Ok<>(value);
    }

    /** A rejection with {@code message}. */
    static <T> Outcome<T> failed(String message) {
        return new Failed<>(message);
    }

    /** True for {@link Ok}. */
    default boolean isOk() {
        return this instanceof Ok;
    }

    /**
     * The value.
     *
     * @throws IllegalStateException on {@link Failed}
     */
    default T value() {
        if (this instanceof Ok<T> ok) {
            return ok.get();
        }
        throw new IllegalStateException("no value: " + ((Failed<T>) this).message());
    }

    /**
     * The rejection message.
     *
     * @throws IllegalStateException on {@link Ok}
     */
    default String error() {
        if (this instanceof Failed<T> failed) {
            return failed.message();
        }
        throw new IllegalStateException("not failed");
    }

    /** Chains a further rule onto a value; a rejection passes through. */
    default <U> Outcome<U> then(Function<? super T, Outcome<U>> next) {
        return this instanceof Ok<T> ok ? next.apply(ok.get()) : new Failed<>(error());
    }

    /**
     * A value.
     *
     * @param get the value (never null)
     */
    record Ok<T>(T get) implements Outcome<T> {

        /** Requires a value. */
        public Ok {
            Objects.requireNonNull(get, "value");
        }
    }

    /**
     * A rejection.
     *
     * @param message what went wrong
     */
    record Failed<T>(String message) implements Outcome<T> {

        /** Requires a message. */
        public Failed {
            Objects.requireNonNull(message, "message");
        }
    }
}
