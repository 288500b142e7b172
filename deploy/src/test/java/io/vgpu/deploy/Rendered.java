package io.vgpu.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Optional;

/** The Kubernetes objects of one render, looked up by kind and name. */
record Rendered(List<JsonNode> objects) {

    Rendered {
        objects = List.copyOf(objects);
    }

    List<JsonNode> all(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return all(kind).stream().filter(o -> name.equals(o.path("metadata").path("name").asText())).findFirst();
    }

    /** The object, which must exist exactly once. */
    JsonNode one(String kind, String name) {
        List<JsonNode> found = all(kind).stream()
                .filter(o -> name.equals(o.path("metadata").path("name").asText())).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + " " + name + ", found " + found.size() + " among "
                    + objects.stream().map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText())
                    .toList());
        }
        return found.get(0);
    }

    /** The only object of {@code kind}. */
    JsonNode only(String kind) {
        List<JsonNode> found = all(kind);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + ", found " + found.size());
        }
        return found.get(0);
    }
}
