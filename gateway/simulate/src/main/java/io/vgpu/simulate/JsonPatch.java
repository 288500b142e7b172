package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies an admission webhook's JSONPatch (RFC 6902 {@code add}, {@code replace}, {@code remove}; RFC 6901
 * pointers) to a pod, as the API server does before it stores the pod. Strict like the API server: an
 * {@code add} under a missing parent, a {@code replace}/{@code remove} of a missing member, or any other
 * {@code op} is an error, and the pod is then not created.
 */
final class JsonPatch {

    private JsonPatch() {
    }

    /**
     * Applies {@code patch} (a JSON array of operations) to a copy of {@code document}.
     *
     * @throws IllegalArgumentException naming the operation that cannot be applied
     */
    static ObjectNode apply(ObjectNode document, JsonNode patch) {
        if (patch == null || !patch.isArray()) {
            throw new IllegalArgumentException("a JSONPatch must be an array");
        }
        ObjectNode doc = document.deepCopy();
        for (JsonNode op : patch) {
            applyOne(doc, op);
        }
        return doc;
    }

    private static void applyOne(ObjectNode doc, JsonNode op) {
        String kind = op.path("op").asText();
        List<String> tokens = tokens(op.path("path").asText(), op);
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("cannot patch the document root: " + op);
        }
        JsonNode parent = doc;
        for (String t : tokens.subList(0, tokens.size() - 1)) {
            JsonNode next = parent.isArray() ? parent.get(index(t, op)) : parent.get(t);
            if (next == null || !next.isContainerNode()) {
                throw new IllegalArgumentException("missing parent '" + t + "' in " + op);
            }
            parent = next;
        }
        String last = tokens.get(tokens.size() - 1);
        JsonNode value = op.get("value");
        if (parent instanceof ObjectNode obj) {
            switch (kind) {
                case "add" -> obj.set(last, required(value, op));
                case "replace" -> {
                    requireMember(obj, last, op);
                    obj.set(last, required(value, op));
                }
                case "remove" -> {
                    requireMember(obj, last, op);
                    obj.remove(last);
                }
                default -> throw new IllegalArgumentException("unsupported op in " + op);
            }
            return;
        }
        ArrayNode arr = (ArrayNode) parent;
        if ("add".equals(kind) && "-".equals(last)) {
            arr.add(required(value, op));
            return;
        }
        int i = index(last, op);
        if (i > ("add".equals(kind) ? arr.size() : arr.size() - 1)) {
            throw new IllegalArgumentException("index out of range in " + op);
        }
        switch (kind) {
            case "add" -> arr.insert(i, required(value, op));
            case "replace" -> arr.set(i, required(value, op));
            case "remove" -> arr.remove(i);
            default -> throw new IllegalArgumentException("unsupported op in " + op);
        }
    }

    private static JsonNode required(JsonNode value, JsonNode op) {
        if (value == null) {
            throw new IllegalArgumentException("missing value in " + op);
        }
        return value;
    }

    private static void requireMember(ObjectNode obj, String name, JsonNode op) {
        if (!obj.has(name)) {
            throw new IllegalArgumentException("missing target in " + op);
        }
    }

    private static int index(String token, JsonNode op) {
        if (!token.matches("0|[1-9][0-9]{0,8}")) {
            throw new IllegalArgumentException("bad array index '" + token + "' in " + op);
        }
        return Integer.parseInt(token);
    }

    /** RFC 6901 reference tokens, unescaped ({@code ~1} → {@code /}, then {@code ~0} → {@code ~}). */
    private static List<String> tokens(String pointer, JsonNode op) {
        List<String> out = new ArrayList<>();
        if (pointer.isEmpty()) {
            return out;
        }
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("pointer must start with '/' in " + op);
        }
        for (String raw : pointer.substring(1).split("/", -1)) {
            out.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }
}
