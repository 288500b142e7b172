package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.webhook.PatchOp;

import java.util.ArrayList;
import java.util.List;

/**
 * A strict RFC 6902 applier for {@code add}, {@code replace} and {@code remove} (test code): proves a
 * webhook patch applies to the pod JSON the API server sends. Like the API server, it fails when an
 * {@code add} names a missing parent, or a {@code replace}/{@code remove} names a missing target.
 */
public final class JsonPatchApplier {

    private JsonPatchApplier() {
    }

    /**
     * Applies {@code ops} in order to a copy of {@code document}.
     *
     * @throws IllegalArgumentException when an op cannot be applied
     */
    public static JsonNode apply(JsonNode document, List<PatchOp> ops) {
        JsonNode doc = document.deepCopy();
        for (PatchOp op : ops) {
            doc = applyOne(doc, op);
        }
        return doc;
    }

    private static JsonNode applyOne(JsonNode doc, PatchOp op) {
        List<String> tokens = tokens(op.path());
        JsonNode value = op.value() == null ? null : VectorJson.MAPPER.valueToTree(op.value());
        if (tokens.isEmpty()) {
            if (op.op() == PatchOp.Op.REMOVE) {
                throw new IllegalArgumentException("cannot remove the document root");
            }
            return value;
        }
        JsonNode parent = doc;
        for (String t : tokens.subList(0, tokens.size() - 1)) {
            parent = child(parent, t, op);
        }
        String last = tokens.get(tokens.size() - 1);
        if (parent instanceof ObjectNode obj) {
            switch (op.op()) {
                case ADD -> obj.set(last, value);
                case REPLACE -> {
                    requireMember(obj, last, op);
                    obj.set(last, value);
                }
                case REMOVE -> {
                    requireMember(obj, last, op);
                    obj.remove(last);
                }
                default -> throw new IllegalArgumentException("unsupported " + op);
            }
        } else if (parent instanceof ArrayNode arr) {
            if (op.op() == PatchOp.Op.ADD && last.equals("-")) {
                arr.add(value);
            } else {
                int i = index(last, op);
                int bound = op.op() == PatchOp.Op.ADD ? arr.size() : arr.size() - 1;
                if (i > bound) {
                    throw new IllegalArgumentException("index out of range in " + op);
                }
                switch (op.op()) {
                    case ADD -> arr.insert(i, value);
                    case REPLACE -> arr.set(i, value);
                    case REMOVE -> arr.remove(i);
                    default -> throw new IllegalArgumentException("unsupported " + op);
                }
            }
        } else {
            throw new IllegalArgumentException("parent is not a container in " + op);
        }
        return doc;
    }

    private static JsonNode child(JsonNode node, String token, PatchOp op) {
        JsonNode next = node.isArray() ? node.get(index(token, op)) : node.isObject() ? node.get(token) : null;
        if (next == null) {
            throw new IllegalArgumentException("missing parent '" + token + "' in " + op);
        }
        return next;
    }

    private static void requireMember(ObjectNode obj, String name, PatchOp op) {
        if (!obj.has(name)) {
            throw new IllegalArgumentException("missing target in " + op);
        }
    }

    private static int index(String token, PatchOp op) {
        if (!token.matches("0|[1-9][0-9]*")) {
            throw new IllegalArgumentException("bad array index '" + token + "' in " + op);
        }
        return Integer.parseInt(token);
    }

    /** RFC 6901 reference tokens, unescaped ({@code ~1} → {@code /}, then {@code ~0} → {@code ~}). */
    static List<String> tokens(String pointer) {
        List<String> out = new ArrayList<>();
        if (pointer.isEmpty()) {
            return out;
        }
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("pointer must start with '/': " + pointer);
        }
        for (String raw : pointer.substring(1).split("/", -1)) {
            out.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }
}
