package io.vgpu.deviceplugin.config;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.GoDuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Typed reads of environment variables with Strimzi-style keys: each read names the project key
 * ({@code VGPU_*}) and optionally the HAMi/NVIDIA name it also accepts; the project key wins. Problems
 * are collected, so start-up reports every bad value at once.
 */
final class EnvReader {

    static final String PREFIX = "VGPU_";

    private final Map<String, String> env;
    private final Set<String> known = new HashSet<>();
    private final List<String> problems = new ArrayList<>();

    EnvReader(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The raw value of {@code key}, else of {@code fallback} (may be null), else empty. */
    Optional<String> raw(String key, String fallback) {
        known.add(key);
        String value = env.get(key);
        if (value == null && fallback != null) {
            value = env.get(fallback);
        }
        return Optional.ofNullable(value);
    }

    /** Declares a key some other component reads, so that it is not reported as unknown. */
    void alsoKnown(String key) {
        known.add(key);
    }

    String text(String key, String fallback, String defaultValue) {
        return raw(key, fallback).orElse(defaultValue);
    }

    String required(String key, String fallback) {
        Optional<String> value = raw(key, fallback).filter(v -> !v.isBlank());
        if (value.isEmpty()) {
            problems.add(key + (fallback == null ? "" : " (or " + fallback + ")") + " is required");
            return "";
        }
        return value.get().strip();
    }

    boolean bool(String key, String fallback, boolean defaultValue) {
        return parsed(key, fallback, defaultValue, "true or false", v -> switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> Optional.of(true);
            case "false", "0", "no" -> Optional.of(false);
            default -> Optional.empty();
        });
    }

    int port(String key, int defaultValue) {
        return parsed(key, null, defaultValue, "a port number 1-65535", v -> {
            try {
                int port = Integer.parseInt(v.strip());
                return port >= 1 && port <= 65535 ? Optional.of(port) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    Duration duration(String key, Duration defaultValue) {
        return duration(key, null, defaultValue);
    }

    Duration duration(String key, String fallback, Duration defaultValue) {
        return parsed(key, fallback, defaultValue, "a positive Go duration such as 30s or 1m30s", v -> {
            Decoded<Duration> d = GoDuration.parse(v.strip());
            return d.isOk() && !d.value().isNegative() && !d.value().isZero() ? Optional.of(d.value()) : Optional.empty();
        });
    }

    Path path(String key, String fallback, String defaultValue) {
        return Path.of(text(key, fallback, defaultValue));
    }

    /** A comma list, trimmed, empty items dropped. */
    List<String> list(String key, String fallback, String defaultValue) {
        List<String> out = new ArrayList<>();
        for (String item : text(key, fallback, defaultValue).split(",")) {
            if (!item.isBlank()) {
                out.add(item.strip());
            }
        }
        return out;
    }

    <T> T parsed(String key, String fallback, T defaultValue, String expected, Function<String, Optional<T>> parser) {
        Optional<String> value = raw(key, fallback);
        if (value.isEmpty() || value.get().isBlank()) {
            return defaultValue;
        }
        Optional<T> parsed = parser.apply(value.get());
        if (parsed.isEmpty()) {
            String name = env.containsKey(key) ? key : fallback;
            problems.add(name + "=" + value.get() + " is not " + expected);
            return defaultValue;
        }
        return parsed.get();
    }

    void problem(String message) {
        problems.add(message);
    }

    /**
     * Fails when any value read was bad (unknown keys are left to the reader that knows them all).
     *
     * @throws ConfigurationException listing every problem
     */
    void validateValues() {
        if (!problems.isEmpty()) {
            throw new ConfigurationException("invalid device-plugin configuration: " + String.join("; ", problems));
        }
    }

    /**
     * Fails when any value was bad or any {@code VGPU_*} variable is not a known key.
     *
     * @throws ConfigurationException listing every problem
     */
    void validate() {
        Set<String> unknown = new TreeSet<>();
        for (String key : env.keySet()) {
            if (key.startsWith(PREFIX) && !known.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            problems.add("unknown configuration variables " + unknown + " (known: " + new TreeSet<>(known) + ")");
        }
        if (!problems.isEmpty()) {
            throw new ConfigurationException("invalid device-plugin configuration: " + String.join("; ", problems));
        }
    }
}
