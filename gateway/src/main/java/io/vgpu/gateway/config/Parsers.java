package io.vgpu.gateway.config;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.GoDuration;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@link ValueParser}s the configuration keys use. Each rejects what it does not understand with
 * a message that says what was expected; none guesses.
 */
public final class Parsers {

    private static final long KIB = 1024;

    private Parsers() {
    }

    /** Any non-empty text. */
    public static ValueParser<String> text() {
        return raw -> raw;
    }

    /** {@code true} or {@code false} (any case). */
    public static ValueParser<Boolean> bool() {
        return raw -> switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("expected true or false");
        };
    }

    /** A decimal integer in {@code [min, max]}. */
    public static ValueParser<Integer> integer(int min, int max) {
        return raw -> {
            long v = parseLong(raw);
            if (v < min || v > max) {
                throw new IllegalArgumentException("expected an integer between " + min + " and " + max);
            }
            return (int) v;
        };
    }

    /** A decimal number in {@code [min, max]}. */
    public static ValueParser<Double> decimal(double min, double max) {
        return raw -> {
            double v;
            try {
                v = Double.parseDouble(raw);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number");
            }
            if (!(v >= min && v <= max)) {
                throw new IllegalArgumentException("expected a number between " + min + " and " + max);
            }
            return v;
        };
    }

    /**
     * A Go duration ({@link GoDuration}, e.g. {@code 5m}, {@code 1h30m}) in {@code [min, max]}; text Go
     * rejects is rejected with Go's message ({@code time: missing unit in duration "300"}).
     */
    public static ValueParser<Duration> duration(Duration min, Duration max) {
        return raw -> {
            Decoded<Duration> parsed = GoDuration.parse(raw);
            if (!parsed.isOk()) {
                throw new IllegalArgumentException(parsed.error() + " (e.g. 5m, 28s, 100ms, 1h30m)");
            }
            Duration d = parsed.value();
            if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
                throw new IllegalArgumentException("expected a duration between " + GoDuration.format(min) + " and "
                        + GoDuration.format(max));
            }
            return d;
        };
    }

    /** A byte count, plain or with a binary suffix ({@code 7340032}, {@code 7Mi}, {@code 512Ki}), in [min, max]. */
    public static ValueParser<Long> bytes(long min, long max) {
        return raw -> {
            long factor = 1;
            String digits = raw;
            Map<String, Long> suffixes = Map.of("Ki", KIB, "Mi", KIB * KIB, "Gi", KIB * KIB * KIB);
            for (Map.Entry<String, Long> suffix : suffixes.entrySet()) {
                if (raw.endsWith(suffix.getKey())) {
                    factor = suffix.getValue();
                    digits = raw.substring(0, raw.length() - 2);
                }
            }
            long v;
            try {
                v = Math.multiplyExact(parseLong(digits), factor);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("byte count out of range");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("expected a byte count such as 7340032, 7Mi or 512Ki");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException("expected a byte count between " + min + " and " + max);
            }
            return v;
        };
    }

    /** One of {@code allowed} (exact spelling). */
    public static ValueParser<String> oneOf(String... allowed) {
        Set<String> set = Set.of(allowed);
        return raw -> {
            if (!set.contains(raw)) {
                throw new IllegalArgumentException("expected one of " + new TreeSet<>(set));
            }
            return raw;
        };
    }

    /** A comma list of one or more of {@code allowed} (HAMi's GPU policy chains such as {@code binpack,numa}). */
    public static ValueParser<String> chainOf(String... allowed) {
        Set<String> set = Set.of(allowed);
        return raw -> {
            for (String token : raw.split(",", -1)) {
                if (!set.contains(token.trim())) {
                    throw new IllegalArgumentException("\"" + token.trim() + "\" is not one of " + new TreeSet<>(set));
                }
            }
            return raw;
        };
    }

    /** A comma list of distinct, non-blank names, in the given order. */
    public static ValueParser<List<String>> names() {
        return raw -> {
            List<String> out = new ArrayList<>();
            for (String token : raw.split(",", -1)) {
                String name = token.trim();
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("empty name in the comma list");
                }
                if (out.contains(name)) {
                    throw new IllegalArgumentException("\"" + name + "\" is listed twice");
                }
                out.add(name);
            }
            return List.copyOf(out);
        };
    }

    /** HAMi's {@code --node-label-selector} form {@code k=v,k2=v2}: an ordered, unmodifiable map. */
    public static ValueParser<Map<String, String>> labels() {
        return raw -> {
            Map<String, String> out = new LinkedHashMap<>();
            for (String term : raw.split(",", -1)) {
                int eq = term.indexOf('=');
                String key = eq < 0 ? "" : term.substring(0, eq).trim();
                if (key.isEmpty()) {
                    throw new IllegalArgumentException("expected key=value pairs separated by commas, got \""
                            + term + "\"");
                }
                if (out.put(key, term.substring(eq + 1).trim()) != null) {
                    throw new IllegalArgumentException("label \"" + key + "\" is given twice");
                }
            }
            return Collections.unmodifiableMap(out);
        };
    }

    /** The path of an existing, readable regular file. */
    public static ValueParser<Path> readableFile() {
        return raw -> {
            Path p;
            try {
                p = Path.of(raw);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("not a valid path");
            }
            if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
                throw new IllegalArgumentException("no readable file at this path");
            }
            return p;
        };
    }

    private static long parseLong(String raw) {
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an integer");
        }
    }
}
