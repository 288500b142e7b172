package io.vgpu.gateway.extender;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * Field lookup as Go's {@code encoding/json} does it for structs without JSON tags (the extender types,
 * spec §2.3): an exact name match wins, otherwise the first case-insensitive match.
 */
final class GoFields {

    private GoFields() {
    }

    /** The value of field {@code name} of {@code object}, or null when absent. */
    static JsonNode get(JsonNode object, String name) {
        JsonNode exact = object.get(name);
        if (exact != null) {
            return exact;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equalsIgnoreCase(name)) {
                return f.getValue();
            }
        }
        return null;
    }

    /** A string field: "" when absent or null; null when present with another JSON type. */
    static String string(JsonNode object, String name) {
        JsonNode v = get(object, name);
        if (v == null || v.isNull()) {
            return "";
        }
        return v.isTextual() ? v.asText() : null;
    }
}
