package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.json.PodJson;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the extender's request bodies like Go's decoder would (case-insensitive field names, nulls
 * allowed) into {@link ExtenderArgs} / {@link ExtenderBindingArgs}. Never throws: a body that cannot be
 * decoded yields a {@link Result.Invalid} whose message goes into the response's {@code Error}.
 */
public final class ExtenderDecoder {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ExtenderDecoder() {
    }

    /** A decoded request or why it could not be decoded. */
    public sealed interface Result<T> {

        /** @param value the decoded request */
        record Valid<T>(T value) implements Result<T> {
        }

        /** @param message what is wrong */
        record Invalid<T>(String message) implements Result<T> {
        }
    }

    /** Decodes a {@code /filter} body. A missing or null {@code Pod} decodes (the service answers it). */
    public static Result<ExtenderArgs> filterArgs(byte[] body) {
        JsonNode root;
        try {
            root = object(body);
        } catch (JsonProcessingException e) {
            return new Result.Invalid<>(message(e));
        }
        if (root == null) {
            return new Result.Invalid<>("EOF");
        }
        if (!root.isObject()) {
            return new Result.Invalid<>("json: cannot unmarshal " + kind(root) + " into Go value of type v1.ExtenderArgs");
        }
        JsonNode podJson = GoFields.get(root, "Pod");
        PodSpec pod = null;
        if (podJson != null && !podJson.isNull()) {
            PodJson.Result decoded = PodJson.decode(podJson, "", "", "");
            if (decoded instanceof PodJson.Undecodable u) {
                return new Result.Invalid<>("Pod: " + u.message());
            }
            pod = ((PodJson.Decoded) decoded).pod();
        }
        List<String> names = null;
        JsonNode nodeNames = GoFields.get(root, "NodeNames");
        if (nodeNames != null && !nodeNames.isNull()) {
            if (!nodeNames.isArray()) {
                return new Result.Invalid<>("json: cannot unmarshal " + kind(nodeNames)
                        + " into Go struct field ExtenderArgs.NodeNames of type []string");
            }
            names = new ArrayList<>(nodeNames.size());
            for (JsonNode n : nodeNames) {
                if (!n.isTextual()) {
                    return new Result.Invalid<>("json: cannot unmarshal " + kind(n)
                            + " into Go struct field ExtenderArgs.NodeNames of type string");
                }
                names.add(n.asText());
            }
        }
        Map<String, JsonNode> nodes = null;
        JsonNode nodeList = GoFields.get(root, "Nodes");
        if (nodeList != null && !nodeList.isNull()) {
            JsonNode items = nodeList.isObject() ? GoFields.get(nodeList, "items") : null;
            if (!nodeList.isObject() || (items != null && !items.isNull() && !items.isArray())) {
                return new Result.Invalid<>("json: cannot unmarshal Nodes into Go struct field ExtenderArgs.Nodes of type v1.NodeList");
            }
            nodes = new LinkedHashMap<>();
            if (items != null) {
                for (JsonNode node : items) {
                    nodes.put(node.path("metadata").path("name").asText(""), node);
                }
            }
        }
        return new Result.Valid<>(new ExtenderArgs(pod, names, nodes));
    }

    /** Decodes a {@code /bind} body. */
    public static Result<ExtenderBindingArgs> bindingArgs(byte[] body) {
        JsonNode root;
        try {
            root = object(body);
        } catch (JsonProcessingException e) {
            return new Result.Invalid<>(message(e));
        }
        if (root == null) {
            return new Result.Invalid<>("EOF");
        }
        if (!root.isObject()) {
            return new Result.Invalid<>("json: cannot unmarshal " + kind(root)
                    + " into Go value of type v1.ExtenderBindingArgs");
        }
        String[] fields = {"PodName", "PodNamespace", "PodUID", "Node"};
        String[] values = new String[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = GoFields.string(root, fields[i]);
            if (values[i] == null) {
                return new Result.Invalid<>("json: cannot unmarshal " + kind(GoFields.get(root, fields[i]))
                        + " into Go struct field ExtenderBindingArgs." + fields[i] + " of type string");
            }
        }
        return new Result.Valid<>(new ExtenderBindingArgs(values[0], values[1], values[2], values[3]));
    }

    private static JsonNode object(byte[] body) throws JsonProcessingException {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            // readTree on a byte array reads no stream, so only a parse problem gets here
            throw new IllegalStateException(e);
        }
    }

    private static String message(JsonProcessingException e) {
        return "invalid JSON: " + e.getOriginalMessage();
    }

    private static String kind(JsonNode n) {
        if (n == null || n.isNull()) {
            return "null";
        }
        if (n.isTextual()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        if (n.isBoolean()) {
            return "bool";
        }
        return n.isArray() ? "array" : "object";
    }
}
