package io.vgpu.gateway.extender;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.json.GoFields;
import io.vgpu.gateway.json.PodJson;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the extender's request bodies as Go's {@code encoding/json} decodes kube-scheduler's structs
 * ({@code ExtenderArgs}, {@code ExtenderBindingArgs}: no JSON tags) into {@link ExtenderArgs} /
 * {@link ExtenderBindingArgs}. Never throws: a body that cannot be decoded yields a {@link Result.Invalid} whose
 * message goes into the response's {@code Error}. Go's rules, in the order they apply:
 * <ul>
 *   <li>the first JSON value of the body is read (what follows it is not looked at); an empty body is {@code EOF};
 *       a syntax error anywhere in that value wins over every other problem;</li>
 *   <li>a field name matches a struct field case-insensitively ({@code nodenames} is {@code NodeNames}); unknown
 *       fields are skipped; a field given more than once, in any spelling, takes its last value;</li>
 *   <li>JSON {@code null} sets a pointer, slice or map field to nil and leaves a string field (and a string in a
 *       list) as it was;</li>
 *   <li>a value of the wrong JSON type is an {@code UnmarshalTypeError}; the earliest one is the answer, after the
 *       whole value was checked for syntax;</li>
 *   <li>a root {@code null} decodes to the zero struct.</li>
 * </ul>
 * The {@code Pod} is then read by {@link PodJson} with Go's field matching as well (its maps keep exact keys).
 * Where Go would merge a repeated object field into the earlier one, the last one is taken whole.
 *
 * <p>The body is read as a stream: a {@code NodeNames} array (thousands of names) goes straight into a list, with no
 * JSON tree node per name, and unknown fields are skipped without building them; a name that repeats the previous
 * request's at its position is that request's {@code String} again ({@link RepeatedNames}). Pure CPU work;
 * thread-safe.
 */
public final class ExtenderDecoder {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String EOF = "EOF";

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
        return filterArgs(body, null);
    }

    /**
     * Decodes a {@code /filter} body as {@link #filterArgs(byte[])} does, taking each {@code NodeNames} element that
     * repeats the one at its position in the last list {@code repeated} holds as that very {@code String} (equal
     * text, so the same request; null: every name is a new string), and leaving this list there for the next call.
     */
    static Result<ExtenderArgs> filterArgs(byte[] body, RepeatedNames repeated) {
        FilterFields fields = new FilterFields(repeated);
        String problem = readStruct(body, "v1.ExtenderArgs", fields);
        if (problem != null) {
            return new Result.Invalid<>(problem);
        }
        PodSpec pod = null;
        if (fields.pod != null) {
            PodJson.Result decoded = PodJson.decode(fields.pod, "", "", "", PodJson.Names.GO);
            if (decoded instanceof PodJson.Undecodable u) {
                return new Result.Invalid<>("Pod: " + u.message());
            }
            pod = ((PodJson.Decoded) decoded).pod();
        }
        Map<String, JsonNode> nodes = null;
        if (fields.nodes != null) {
            JsonNode items = GoFields.get(fields.nodes, "items");
            if (items != null && !items.isNull() && !items.isArray()) {
                return new Result.Invalid<>(typeError(kind(items), "NodeList.items", "[]v1.Node"));
            }
            nodes = new LinkedHashMap<>();
            if (items != null) {
                for (JsonNode node : items) {
                    if (!node.isObject() && !node.isNull()) {
                        return new Result.Invalid<>(typeError(kind(node), "NodeList.items", "v1.Node"));
                    }
                    JsonNode meta = node.isObject() ? GoFields.get(node, "metadata") : null;
                    JsonNode name = meta != null && meta.isObject() ? GoFields.get(meta, "name") : null;
                    nodes.put(name != null && name.isTextual() ? name.textValue() : "", node);
                }
            }
        }
        return new Result.Valid<>(new ExtenderArgs(pod, fields.nodeNames, nodes));
    }

    /** Decodes a {@code /bind} body. */
    public static Result<ExtenderBindingArgs> bindingArgs(byte[] body) {
        BindFields fields = new BindFields();
        String problem = readStruct(body, "v1.ExtenderBindingArgs", fields);
        if (problem != null) {
            return new Result.Invalid<>(problem);
        }
        return new Result.Valid<>(new ExtenderBindingArgs(fields.values[0], fields.values[1], fields.values[2],
                fields.values[3]));
    }

    /** The fields of one Go struct: takes the value of a field name it knows, reporting a type error if any. */
    private interface StructFields {

        /**
         * Reads the value at the parser's current token (its first token) into the field {@code name} matches, or
         * skips it when none does.
         *
         * @return the type error of this value, or null
         */
        String read(String name, JsonParser parser) throws IOException;
    }

    /**
     * Reads the first JSON value of {@code body} into {@code fields}.
     *
     * @return null, or the decoder's error text: a syntax error, a non-object root, the earliest type error
     */
    private static String readStruct(byte[] body, String goType, StructFields fields) {
        if (body == null || body.length == 0) {
            return EOF;
        }
        try (JsonParser parser = MAPPER.createParser(body)) {
            JsonToken root = parser.nextToken();
            if (root == null) {
                return EOF;
            }
            if (root == JsonToken.VALUE_NULL) {
                return null;
            }
            if (root != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return "json: cannot unmarshal " + kind(root) + " into Go value of type " + goType;
            }
            String firstTypeError = null;
            for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                String name = parser.currentName();
                parser.nextToken();
                String typeError = fields.read(name, parser);
                if (firstTypeError == null) {
                    firstTypeError = typeError;
                }
            }
            return firstTypeError;
        } catch (JsonProcessingException e) {
            return "invalid JSON: " + e.getOriginalMessage();
        } catch (IOException e) {
            // a byte array is read without I/O: only a parse problem gets here
            return "invalid JSON: " + e.getMessage();
        }
    }

    /** {@code ExtenderArgs}: {@code Pod *v1.Pod}, {@code Nodes *v1.NodeList}, {@code NodeNames *[]string}. */
    private static final class FilterFields implements StructFields {
        private final RepeatedNames repeated;
        JsonNode pod;
        JsonNode nodes;
        List<String> nodeNames;

        FilterFields(RepeatedNames repeated) {
            this.repeated = repeated;
        }

        @Override
        public String read(String name, JsonParser parser) throws IOException {
            JsonToken t = parser.currentToken();
            if ("Pod".equalsIgnoreCase(name)) {
                pod = object(parser, pod);
                return objectTypeError(t, "ExtenderArgs.Pod", "v1.Pod");
            }
            if ("Nodes".equalsIgnoreCase(name)) {
                nodes = object(parser, nodes);
                return objectTypeError(t, "ExtenderArgs.Nodes", "v1.NodeList");
            }
            if ("NodeNames".equalsIgnoreCase(name)) {
                return names(parser);
            }
            parser.skipChildren();
            return null;
        }

        /** An object field: the value's tree, null for JSON null, {@code previous} (skipped) for another type. */
        private static JsonNode object(JsonParser parser, JsonNode previous) throws IOException {
            JsonToken t = parser.currentToken();
            if (t == JsonToken.VALUE_NULL) {
                return null;
            }
            if (t == JsonToken.START_OBJECT) {
                return MAPPER.readTree(parser);
            }
            parser.skipChildren();
            return previous;
        }

        private static String objectTypeError(JsonToken t, String field, String goType) {
            return t == JsonToken.VALUE_NULL || t == JsonToken.START_OBJECT ? null : typeError(kind(t), field, goType);
        }

        private String names(JsonParser parser) throws IOException {
            JsonToken t = parser.currentToken();
            if (t == JsonToken.VALUE_NULL) {
                nodeNames = null;
                return null;
            }
            if (t != JsonToken.START_ARRAY) {
                parser.skipChildren();
                return typeError(kind(t), "ExtenderArgs.NodeNames", "[]string");
            }
            String[] previous = repeated == null ? RepeatedNames.NONE : repeated.last();
            // a list of its own only from the first name that differs from the last request's at its position
            List<String> names = repeated == null ? new ArrayList<>() : null;
            int count = 0;
            String typeError = null;
            for (JsonToken e = parser.nextToken(); e != JsonToken.END_ARRAY; e = parser.nextToken()) {
                if (e == JsonToken.VALUE_STRING || e == JsonToken.VALUE_NULL) {
                    String before = count < previous.length ? previous[count] : null;
                    // null leaves the element at its zero value
                    boolean same = before != null && e == JsonToken.VALUE_STRING && RepeatedNames.sameText(parser, before);
                    if (names == null && !same) {
                        names = new ArrayList<>(Math.max(10, previous.length));
                        names.addAll(Arrays.asList(previous).subList(0, count));
                    }
                    if (names != null) {
                        names.add(same ? before : e == JsonToken.VALUE_NULL ? "" : parser.getText());
                    }
                    count++;
                } else {
                    if (typeError == null) {
                        typeError = typeError(kind(e), "ExtenderArgs.NodeNames", "string");
                    }
                    parser.skipChildren();
                }
            }
            List<String> same = names == null && count == previous.length ? repeated.listOf(previous) : null;
            if (same != null) {
                nodeNames = same; // the last request's names, every one: nothing to remember
                return typeError;
            }
            if (names == null) {
                names = new ArrayList<>(Arrays.asList(previous).subList(0, count));
            }
            nodeNames = names;
            if (repeated != null) {
                repeated.remember(names);
            }
            return typeError;
        }
    }

    /** {@code ExtenderBindingArgs}: four strings ({@code PodUID} a {@code types.UID}, {@code Node} a {@code types.NodeName}). */
    private static final class BindFields implements StructFields {
        private static final String[] NAMES = {"PodName", "PodNamespace", "PodUID", "Node"};
        private static final String[] GO_TYPES = {"string", "string", "types.UID", "types.NodeName"};

        final String[] values = {"", "", "", ""};

        @Override
        public String read(String name, JsonParser parser) throws IOException {
            for (int i = 0; i < NAMES.length; i++) {
                if (NAMES[i].equalsIgnoreCase(name)) {
                    JsonToken t = parser.currentToken();
                    if (t == JsonToken.VALUE_STRING) {
                        values[i] = parser.getText();
                        return null;
                    }
                    parser.skipChildren();
                    return t == JsonToken.VALUE_NULL ? null
                            : typeError(kind(t), "ExtenderBindingArgs." + NAMES[i], GO_TYPES[i]);
                }
            }
            parser.skipChildren();
            return null;
        }
    }

    private static String typeError(String kind, String field, String goType) {
        return "json: cannot unmarshal " + kind + " into Go struct field " + field + " of type " + goType;
    }

    /** Go's name for the JSON kind a token starts. */
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
