package io.vgpu.gateway.json;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/**
 * Field lookup as Go's {@code encoding/json} does it for structs (the extender types, spec §2.3, and the Kubernetes
 * objects inside them): the name matches case-insensitively, and of several matches the last one wins, as Go assigns
 * each occurrence in turn. (A tree keeps one entry per exact name, the last value at the first position: that is
 * the one order Go's would differ in.)
 */
public final class GoFields {

    private GoFields() {
    }

    /** The value of field {@code name} of {@code object}, or null when absent. */
    public static JsonNode get(JsonNode object, String name) {
        JsonNode found = null;
        for (Map.Entry<String, JsonNode> f : object.properties()) {
            if (f.getKey().equalsIgnoreCase(name)) {
                found = f.getValue();
            }
        }
        return found;
    }
}
