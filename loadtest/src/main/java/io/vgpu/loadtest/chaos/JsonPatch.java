package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Applies an RFC 6902 JSON Patch ({@code add}, {@code replace}, {@code remove}: what the webhook emits) to a JSON
 * tree in place, as the API server does with a mutating webhook's answer. Strict: a path that does not resolve
 * is an {@link IllegalArgumentException}.
 */
final class JsonPatch {

    private JsonPatch() {
    }

    /** Applies every operation of {@code patch} (a JSON array) to {@code target}, in order. */
    static void apply(JsonNode target, JsonNode patch) {
        for (JsonNode op : patch) {
            String kind = op.path("op").asText();
            String[] path = pointer(op.path("path").asText());
            JsonNode parent = resolve(target, path, path.length - 1);
            String last = path[path.length - 1];
            switch (kind) {
                case "add" -> add(parent, last, op.get("value"));
                case "replace" -> {
                    remove(parent, last);
                    add(parent, last, op.get("value"));
                }
                case "remove" -> remove(parent, last);
                default -> throw new IllegalArgumentException("unsupported patch op " + kind);
            }
        }
    }

    private static void add(JsonNode parent, String key, JsonNode value) {
        if (parent instanceof ObjectNode object) {
            object.set(key, value.deepCopy());
        } else if (parent instanceof ArrayNode array) {
            if ("-".equals(key)) {
                array.add(value.deepCopy());
            } else {
                array.insert(index(array, key, true), value.deepCopy());
            }
        } else {
            throw new IllegalArgumentException("cannot add " + key + " under a scalar");
        }
    }

    private static void remove(JsonNode parent, String key) {
        if (parent instanceof ObjectNode object && object.has(key)) {
            object.remove(key);
        } else if (parent instanceof ArrayNode array) {
            array.remove(index(array, key, false));
        } else {
            throw new IllegalArgumentException("nothing to remove at " + key);
        }
    }

    private static JsonNode resolve(JsonNode root, String[] path, int depth) {
        JsonNode node = root;
        for (int i = 0; i < depth; i++) {
            node = node.isArray() ? node.get(index((ArrayNode) node, path[i], false)) : node.get(path[i]);
            if (node == null) {
                throw new IllegalArgumentException("path does not resolve: /" + String.join("/", path));
            }
        }
        return node;
    }

    private static int index(ArrayNode array, String key, boolean insert) {
        int i = Integer.parseInt(key);
        if (i < 0 || i > array.size() || (!insert && i == array.size())) {
            throw new IllegalArgumentException("array index out of range: " + key);
        }
        return i;
    }

    private static String[] pointer(String path) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("not a JSON pointer: " + path);
        }
        String[] parts = path.substring(1).split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            parts[i] = parts[i].replace("~1", "/").replace("~0", "~");
        }
        return parts;
    }
}
