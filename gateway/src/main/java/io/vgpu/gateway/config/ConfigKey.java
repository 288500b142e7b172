package io.vgpu.gateway.config;

import java.util.Objects;

/**
 * One environment variable of the configuration (Strimzi {@code ConfigParameter} style): its name,
 * how it is parsed, its default and whether it must be given. Immutable.
 *
 * @param <T> the parsed type
 */
public final class ConfigKey<T> {

    private final String name;
    private final ValueParser<T> parser;
    private final String defaultValue;
    private final boolean required;
    private final String description;

    private ConfigKey(String name, ValueParser<T> parser, String defaultValue, boolean required, String description) {
        this.name = Objects.requireNonNull(name, "name");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.defaultValue = defaultValue;
        this.required = required;
        this.description = Objects.requireNonNull(description, "description");
    }

    /**
     * An optional key with a default.
     *
     * @param name         the environment variable, e.g. {@code VGPU_HTTP_PORT}
     * @param parser       parses the raw text
     * @param defaultValue raw text used when the variable is unset or empty; null = no value (the key reads as absent)
     * @param description  one line for the README and {@code --help}
     */
    public static <T> ConfigKey<T> optional(String name, ValueParser<T> parser, String defaultValue,
                                            String description) {
        return new ConfigKey<>(name, parser, defaultValue, false, description);
    }

    /** A key that must be given (no default). */
    public static <T> ConfigKey<T> required(String name, ValueParser<T> parser, String description) {
        return new ConfigKey<>(name, parser, null, true, description);
    }

    /** The environment variable name. */
    public String name() {
        return name;
    }

    /** The parser. */
    public ValueParser<T> parser() {
        return parser;
    }

    /** Raw default text, or null when there is none. */
    public String defaultValue() {
        return defaultValue;
    }

    /** Whether start-up fails when the variable is unset. */
    public boolean required() {
        return required;
    }

    /** One line describing the key. */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return name;
    }
}
