package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Collects the differences between what a vector expects and what the implementation produced. */
final class Checks {

    private final List<String> found = new ArrayList<>();

    /** Records a mismatch when {@code expected} and {@code actual} differ ({@link Objects#equals}). */
    Checks expect(String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            found.add(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
        return this;
    }

    /** Lists compared as multisets (the vector says the order is not significant). */
    Checks expectSameElements(String what, List<?> expected, List<?> actual) {
        if (!counts(expected).equals(counts(actual))) {
            found.add(what + ": expected elements " + expected + " but were " + actual);
        }
        return this;
    }

    /**
     * An error the vector names: {@code error_contains}/{@code error} text must be a substring of the
     * actual message, except for the two error categories the vectors spell as words rather than Go
     * text ({@code time parse error} → Go's {@code parsing time ...}; {@code JSON decode error} → the
     * codec's JSON error).
     */
    Checks expectError(String what, String expected, String actual) {
        if (actual == null) {
            found.add(what + ": expected an error containing <" + expected + "> but there was none");
            return this;
        }
        boolean matches = switch (expected) {
            case "time parse error" -> actual.startsWith("parsing time ");
            case "JSON decode error" -> actual.startsWith("invalid JSON") || actual.startsWith("json: ")
                    || actual.equals("unexpected end of JSON input");
            default -> actual.contains(expected);
        };
        if (!matches) {
            found.add(what + ": expected an error containing <" + expected + "> but was <" + actual + ">");
        }
        return this;
    }

    /** Records a free-form mismatch. */
    Checks fail(String message) {
        found.add(message);
        return this;
    }

    /** The mismatches found so far. */
    List<String> list() {
        return List.copyOf(found);
    }

    /** True when the vector says the order of its lists does not matter. */
    static boolean orderFree(JsonNode expected) {
        return expected.has("order_significant") && !expected.get("order_significant").asBoolean();
    }

    private static Map<Object, Integer> counts(List<?> list) {
        Map<Object, Integer> out = new HashMap<>();
        for (Object o : list) {
            out.merge(o, 1, Integer::sum);
        }
        return out;
    }
}
