package io.vgpu.state.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Binds JSON text the way Go's {@code encoding/json} unmarshals it into HAMi's structs: object keys
 * match field names case-insensitively, unknown keys are ignored, {@code null} leaves a field at its
 * zero value, and a value of the wrong JSON type or out of the Go type's range is an error
 * ({@code json: cannot unmarshal number 1.5 into Go struct field DeviceInfo.count of type int32}).
 *
 * <p>Known divergence: a key repeated with exactly the same spelling keeps only its last value (the
 * tree parser collapses it), so {@code {"count":4,"count":null}} reads 0 where Go keeps 4. Keys that
 * differ in case are all seen, in document order, as in Go.
 *
 * <p>Go integer types wider than Java's {@code int} ({@code uint}, {@code int}, {@code uint32}) are held
 * in {@code int} by the model; values beyond {@link Integer#MAX_VALUE} are reported as errors rather
 * than silently truncated.
 */
final class GoJsonReader {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private GoJsonReader() {
    }

    /** Parses {@code text} into a tree, or a syntax error in Go's words where they are simple. */
    static Decoded<JsonNode> tree(String text) {
        if (text == null || text.isBlank()) {
            return Decoded.err("unexpected end of JSON input");
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? Decoded.err("unexpected end of JSON input") : Decoded.ok(node);
        } catch (JsonEOFException eof) {
            return Decoded.err("unexpected end of JSON input");
        } catch (JsonProcessingException syntax) {
            return Decoded.err("invalid JSON: " + firstLine(syntax.getOriginalMessage()));
        }
    }

    /**
     * Binds a JSON array (or {@code null}, meaning none) element by element.
     *
     * @param goType the Go slice type, for the message when {@code node} is not an array
     */
    static <T> List<T> array(JsonNode node, String goType, Function<JsonNode, T> element) {
        List<T> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            throw new Mismatch("json: cannot unmarshal " + kind(node) + " into Go value of type " + goType);
        }
        node.forEach(e -> out.add(element.apply(e)));
        return out;
    }

    /** Requires a JSON object for a struct of Go type {@code goType}. */
    static void requireObject(JsonNode node, String goType) {
        if (!node.isObject()) {
            throw new Mismatch("json: cannot unmarshal " + kind(node) + " into Go value of type " + goType);
        }
    }

    /** A string field; null leaves {@code current}. */
    static String string(JsonNode v, String current, Field f) {
        if (v.isNull()) {
            return current;
        }
        if (!v.isTextual()) {
            throw f.mismatch(v, "string");
        }
        return v.textValue();
    }

    /** A bool field; null leaves {@code current}. */
    static boolean bool(JsonNode v, boolean current, Field f) {
        if (v.isNull()) {
            return current;
        }
        if (!v.isBoolean()) {
            throw f.mismatch(v, "bool");
        }
        return v.booleanValue();
    }

    /**
     * An integer field of Go type {@code goType} whose range is [{@code min}, {@code max}] in Go; values
     * outside Java's int are refused as unsupported. Null leaves {@code current}.
     */
    static int integer(JsonNode v, int current, Field f, String goType, BigInteger min, BigInteger max) {
        if (v.isNull()) {
            return current;
        }
        if (!v.isNumber() || !v.isIntegralNumber()) {
            throw f.mismatch(v, goType);
        }
        BigInteger n = v.bigIntegerValue();
        if (n.compareTo(min) < 0 || n.compareTo(max) > 0) {
            throw f.mismatch(v, goType);
        }
        if (n.bitLength() > 31) {
            throw new Mismatch("json: number " + n + " for Go struct field " + f.fullPath()
                    + " is beyond what this implementation holds (" + Integer.MIN_VALUE + ".." + Integer.MAX_VALUE + ")");
        }
        return n.intValue();
    }

    /** A Go {@code map[string]any} field: any object or null. */
    static void anyObject(JsonNode v, Field f) {
        if (!v.isNull() && !v.isObject()) {
            throw f.mismatch(v, "map[string]interface {}");
        }
    }

    /** The JSON kind as Go's UnmarshalTypeError names it. */
    static String kind(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number " + v.asText();
        }
        if (v.isBoolean()) {
            return "bool";
        }
        return v.isArray() ? "array" : "object";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "syntax error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Go's int32 range. */
    static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    /** Go's int32 range. */
    static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    /** Go's int (64-bit) range. */
    static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    /** Go's int (64-bit) range. */
    static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** Go's uint32 maximum. */
    static final BigInteger UINT32_MAX = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
    /** Go's uint (64-bit) maximum. */
    static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /**
     * Where a value is being bound, for Go's message: {@code Go struct field <Struct>.<path>}.
     *
     * @param struct the innermost Go struct type name
     * @param path   the dotted JSON key path from the top-level value
     */
    record Field(String struct, String path) {

        Field child(String childStruct, String key) {
            return new Field(childStruct, path + "." + key);
        }

        String fullPath() {
            return struct + "." + path;
        }

        Mismatch mismatch(JsonNode v, String goType) {
            return new Mismatch("json: cannot unmarshal " + kind(v) + " into Go struct field " + fullPath()
                    + " of type " + goType);
        }
    }

    /**
     * A binding failure. Thrown only inside this package's decoders and always caught by their public
     * entry points, which turn it into a {@link Decoded.Err}.
     */
    static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message, null, false, false);
        }
    }
}
