package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
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
 *
 * <p>The {@code /filter} body is read as a stream: its {@code NodeNames} array (thousands of names) goes straight
 * into a list, without a JSON tree node per name; every other field is read as a tree, as before. Anything the
 * stream does not take (a root that is not an object, a syntax error) is decoded again through the whole-tree path,
 * so every error answer stays what that path gives.
 */
public final class ExtenderDecoder {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String NODE_NAMES = "NodeNames";

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
        if (body == null || body.length == 0) {
            return filterArgsFromTree(body);
        }
        ObjectNode root;
        try (JsonParser parser = MAPPER.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return filterArgsFromTree(body);
            }
            root = streamedRoot(parser);
        } catch (IOException | RuntimeException e) {
            // the tree path meets the same problem and words it as it always has
            return filterArgsFromTree(body);
        }
        return filterArgs(root);
    }

    /** The whole-tree decode of a {@code /filter} body: the reference the streamed decode must agree with. */
    static Result<ExtenderArgs> filterArgsFromTree(byte[] body) {
        JsonNode root;
        try {
            root = object(body);
        } catch (JsonProcessingException e) {
            return new Result.Invalid<>(message(e));
        }
        return filterArgs(root);
    }

    /**
     * The root object with every field as {@link ObjectMapper#readTree} builds it (same order, a repeated name keeps
     * its first position and its last value), except that a {@code NodeNames} array (any case) is a {@link POJONode}
     * holding its {@link NameList}.
     */
    private static ObjectNode streamedRoot(JsonParser parser) throws IOException {
        ObjectNode root = MAPPER.getNodeFactory().objectNode();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
            if (t != JsonToken.FIELD_NAME) {
                throw new IOException("unexpected " + t + " in the root object");
            }
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (value == JsonToken.START_ARRAY && NODE_NAMES.equalsIgnoreCase(name)) {
                root.set(name, MAPPER.getNodeFactory().pojoNode(nameList(parser)));
            } else {
                root.set(name, MAPPER.readTree(parser));
            }
        }
        return root;
    }

    /** Reads a {@code NodeNames} array up to its end: its strings, or the kind of its first non-string element. */
    private static NameList nameList(JsonParser parser) throws IOException {
        List<String> names = new ArrayList<>();
        String firstNonString = null;
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            if (t == null) {
                throw new IOException("end of input inside NodeNames");
            }
            if (t == JsonToken.VALUE_STRING) {
                names.add(parser.getText());
            } else if (firstNonString == null) {
                firstNonString = kind(t);
            }
            parser.skipChildren();
        }
        return new NameList(names, firstNonString);
    }

    /**
     * A streamed {@code NodeNames} array.
     *
     * @param names          its strings, in order
     * @param firstNonString the JSON kind of its first element that is not a string, or null
     */
    private record NameList(List<String> names, String firstNonString) {
    }

    private static Result<ExtenderArgs> filterArgs(JsonNode root) {
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
        JsonNode nodeNames = GoFields.get(root, NODE_NAMES);
        if (nodeNames instanceof POJONode streamed && streamed.getPojo() instanceof NameList list) {
            if (list.firstNonString() != null) {
                return new Result.Invalid<>("json: cannot unmarshal " + list.firstNonString()
                        + " into Go struct field ExtenderArgs.NodeNames of type string");
            }
            names = list.names();
        } else if (nodeNames != null && !nodeNames.isNull()) {
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

    /** {@link #kind(JsonNode)} of the value a token starts. */
    private static String kind(JsonToken t) {
        return switch (t) {
            case VALUE_NULL -> "null";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            case START_ARRAY -> "array";
            default -> "object";
        };
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
