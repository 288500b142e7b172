package io.vgpu.state.codec;

import java.util.Objects;
import java.util.function.Function;

/**
 * The result of decoding wire text: either the decoded value or a human-readable error message.
 * Codecs return this instead of throwing, so that bad input (truncated, wrong field counts,
 * non-numeric, out-of-range numbers, null) is an ordinary outcome the caller must look at.
 *
 * @param <T> the decoded value's type
 */
public sealed interface Decoded<T> permits Decoded.Ok, Decoded.Err {

    /** A successful decode. */
    static <T> Decoded<T> ok(T value) {
        return new Ok<>(value);
    }

    /** A failed decode with {@code message} (never null). */
    static <T> Decoded<T> err(String message) {
        return new Err<>(message);
    }

    /** True for {@link Ok}. */
    boolean isOk();

    /**
     * The decoded value.
     *
     * @throws IllegalStateException on {@link Err}; check {@link #isOk()} first
     */
    T value();

    /**
     * The error message.
     *
     * @throws IllegalStateException on {@link Ok}; check {@link #isOk()} first
     */
    String error();

    /** Applies {@code f} to the value of an {@link Ok}; an {@link Err} passes through unchanged. */
    <U> Decoded<U> map(Function<? super T, ? extends U> f);

    /** Chains a further decode step onto an {@link Ok}; an {@link Err} passes through unchanged. */
    <U> Decoded<U> flatMap(Function<? super T, Decoded<U>> f);

    /** The value of an {@link Ok}, or {@code fallback} for an {@link Err}. */
    default T orElse(T fallback) {
        return isOk() ? value() : fallback;
    }

    /**
     * A successful decode.
     *
     * @param value the decoded value (may be null only when the codec documents it)
     */
    record Ok<T>(T value) implements Decoded<T> {

        @Override
        public boolean isOk() {
            return true;
        }

        @Override
        public String error() {
            throw new IllegalStateException("no error: the decode succeeded");
        }

        @Override
        public <U> Decoded<U> map(Function<? super T, ? extends U> f) {
            return new Ok<>(f.apply(value));
        }

        @Override
        public <U> Decoded<U> flatMap(Function<? super T, Decoded<U>> f) {
            return f.apply(value);
        }
    }

    /**
     * A failed decode.
     *
     * @param message what was wrong, byte-exact where HAMi's text is part of the contract
     */
    record Err<T>(String message) implements Decoded<T> {

        /** Requires a message. */
        public Err {
            Objects.requireNonNull(message, "message");
        }

        @Override
        public boolean isOk() {
            return false;
        }

        @Override
        public T value() {
            throw new IllegalStateException("decode failed: " + message);
        }

        @Override
        public String error() {
            return message;
        }

        @Override
        public <U> Decoded<U> map(Function<? super T, ? extends U> f) {
            return new Err<>(message);
        }

        @Override
        public <U> Decoded<U> flatMap(Function<? super T, Decoded<U>> f) {
            return new Err<>(message);
        }
    }
}
