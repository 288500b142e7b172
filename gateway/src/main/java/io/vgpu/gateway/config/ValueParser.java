package io.vgpu.gateway.config;

/**
 * Turns the raw text of one configuration value into a typed value.
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface ValueParser<T> {

    /**
     * @param raw the value as given (never null; surrounding whitespace already trimmed)
     * @return the typed value, never null
     * @throws IllegalArgumentException with a short message naming what was expected when {@code raw} is invalid
     */
    T parse(String raw);
}
