package io.vgpu.gateway.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads typed {@link ConfigKey}s from an environment map and collects every problem instead of
 * stopping at the first, so that {@link #finish()} can fail start-up with one message naming every bad
 * value, every missing required key and every unknown key with the project prefix.
 *
 * <p>Several config records can be read from one reader (the gateway's, later the store's); the
 * unknown-key check in {@link #finish()} runs over the union of the keys they read. An empty value
 * counts as unset (Helm templates render absent values as ""). Not thread-safe; used once at start.
 */
public final class EnvReader {

    private final Map<String, String> env;
    private final String prefix;
    private final Set<String> known = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();

    /**
     * @param env    the environment, e.g. {@code System.getenv()}
     * @param prefix the project prefix; every variable starting with it must be a known key, e.g. {@code VGPU_}
     */
    public EnvReader(Map<String, String> env, String prefix) {
        this.env = Map.copyOf(env);
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /**
     * The value of {@code key}: parsed from the environment, else parsed from its default.
     *
     * @return the value; null when the key is unset and has no default, or when it is invalid (a problem is recorded)
     */
    public <T> T get(ConfigKey<T> key) {
        known.add(key.name());
        String given = env.get(key.name());
        boolean set = given != null && !given.isBlank();
        if (!set && key.required()) {
            problems.add(key.name() + " is required (" + key.description() + ")");
            return null;
        }
        String raw = set ? given.trim() : key.defaultValue();
        if (raw == null) {
            return null;
        }
        try {
            return Objects.requireNonNull(key.parser().parse(raw), "parser returned null");
        } catch (IllegalArgumentException | NullPointerException e) {
            problems.add(key.name() + "=" + quote(raw) + (set ? "" : " (default)") + ": " + e.getMessage());
            return null;
        }
    }

    /** The raw value of any variable (e.g. {@code POD_NAME}); null when unset or blank. */
    public String raw(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Records a problem that involves several keys (e.g. "cert without key"). */
    public void problem(String message) {
        problems.add(message);
    }

    /** Whether any problem has been recorded so far. */
    public boolean hasProblems() {
        return !problems.isEmpty();
    }

    /**
     * Adds a problem for every prefixed variable that no {@link #get} asked for, then fails when there
     * is any problem.
     *
     * @throws ConfigurationException listing every problem
     */
    public void finish() {
        List<String> all = new ArrayList<>(problems);
        boolean unknown = false;
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith(prefix) && !known.contains(name)) {
                all.add(name + " is not a known setting");
                unknown = true;
            }
        }
        if (unknown) {
            all.add("known settings: " + String.join(", ", new TreeSet<>(known)));
        }
        if (!all.isEmpty()) {
            throw new ConfigurationException(all);
        }
    }

    private static String quote(String raw) {
        return "\"" + raw + "\"";
    }
}
