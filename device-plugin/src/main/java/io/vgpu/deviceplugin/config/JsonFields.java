package io.vgpu.deviceplugin.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Typed access to JSON/YAML object fields the way Go's {@code encoding/json} binds them: keys matched
 * case-insensitively, {@code null} = absent, a value of the wrong type is an error naming the field.
 */
final class JsonFields {

    private final JsonNode object;
    private final String where;

    JsonFields(JsonNode object, String where) {
        this.object = object;
        this.where = where;
    }

    /** The field, matched ignoring case; null when absent or JSON null. */
    JsonNode get(String key) {
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().toLowerCase(Locale.ROOT).equals(key.toLowerCase(Locale.ROOT))) {
                return e.getValue().isNull() ? null : e.getValue();
            }
        }
        return null;
    }

    String text(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isTextual()) {
            throw bad(key, "a string", n);
        }
        return n.asText();
    }

    /** A string, or a number written without quotes (YAML {@code libCudaLogLevel: 1}). */
    String textOrNumber(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isTextual() && !n.isNumber()) {
            throw bad(key, "a string", n);
        }
        return n.asText();
    }

    Integer integer(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw bad(key, "an integer", n);
        }
        return n.asInt();
    }

    Long longValue(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw bad(key, "an integer", n);
        }
        return n.asLong();
    }

    Double number(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isNumber()) {
            throw bad(key, "a number", n);
        }
        return n.asDouble();
    }

    Boolean bool(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isBoolean()) {
            throw bad(key, "true or false", n);
        }
        return n.asBoolean();
    }

    List<String> texts(String key) {
        JsonNode n = get(key);
        List<String> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (!n.isArray()) {
            throw bad(key, "a list", n);
        }
        for (JsonNode e : n) {
            if (!e.isTextual()) {
                throw bad(key, "a list of strings", n);
            }
            out.add(e.asText());
        }
        return out;
    }

    List<Integer> integers(String key) {
        JsonNode n = get(key);
        List<Integer> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (!n.isArray()) {
            throw bad(key, "a list", n);
        }
        for (JsonNode e : n) {
            if (!e.isIntegralNumber() || !e.canConvertToInt()) {
                throw bad(key, "a list of integers", n);
            }
            out.add(e.asInt());
        }
        return out;
    }

    JsonFields object(String key) {
        JsonNode n = get(key);
        if (n == null) {
            return null;
        }
        if (!n.isObject()) {
            throw bad(key, "an object", n);
        }
        return new JsonFields(n, where + "." + key);
    }

    private ConfigurationException bad(String key, String wanted, JsonNode got) {
        return new ConfigurationException(where + "." + key + " must be " + wanted + ", got " + got);
    }
}
