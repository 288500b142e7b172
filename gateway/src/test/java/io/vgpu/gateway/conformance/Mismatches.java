package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Collects the differences between what a case expects and what the implementation produced. */
public final class Mismatches {

    private final List<String> found = new ArrayList<>();

    /** Records a mismatch when {@code expected} and {@code actual} differ ({@link Objects#equals}). */
    public Mismatches expect(String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            found.add(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
        return this;
    }

    /** Records a mismatch when two JSON trees differ (numbers compared by value: 1 equals 1.0). */
    public Mismatches expectJson(String what, JsonNode expected, JsonNode actual) {
        if (!VectorJson.sameJson(expected, actual)) {
            found.add(what + ": expected " + expected + " but was " + actual);
        }
        return this;
    }

    /** Records a free-form mismatch. */
    public Mismatches fail(String message) {
        found.add(message);
        return this;
    }

    /** The mismatches found so far. */
    public List<String> list() {
        return List.copyOf(found);
    }
}
