package io.vgpu.gateway.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps Pod JSON (an AdmissionReview's {@code request.object}, an extender request's {@code Pod}) onto the
 * core's {@link PodSpec}.
 * Only the fields the core reads are taken; everything else stays in the raw JSON, which the webhook
 * never re-serialises (the patch is targeted), so unknown fields survive.
 *
 * <p>Every {@code env} entry is kept, in order, including {@code valueFrom} entries (as a value of
 * null), because the patch addresses env entries by index ({@code PodPatch} contract). A field of the
 * wrong JSON type makes the pod undecodable, as Go's decoder would; quantities may be JSON strings or
 * numbers (Kubernetes accepts both). Never throws on bad input: {@link #decode} returns a {@link Result}.
 */
public final class PodJson {

    /** A decoded pod or the reason it could not be decoded. */
    public sealed interface Result permits Decoded, Undecodable {
    }

    /** @param pod the pod */
    public record Decoded(PodSpec pod) implements Result {
    }

    /** @param message what is wrong, with the JSON path */
    public record Undecodable(String message) implements Result {
    }

    /** How field names of the Pod's structs are matched (map keys, e.g. annotations, always exactly). */
    public enum Names {
        /** Exactly, as the API machinery's serializer does (admission: controller-runtime's decoder). */
        EXACT,
        /** As Go's {@code encoding/json} does (HAMi's extender): case-insensitively, the last match winning. */
        GO
    }

    /**
     * Decodes with exact field names ({@link Names#EXACT}).
     *
     * @param object    {@code request.object}
     * @param namespace {@code request.namespace}, used when the object has none (pods created without one)
     * @param name      {@code request.name}, used when the object has none
     * @param uid       used when the object has no {@code metadata.uid} (the AdmissionReview request uid)
     */
    public static Result decode(JsonNode object, String namespace, String name, String uid) {
        return decode(object, namespace, name, uid, Names.EXACT);
    }

    /** {@link #decode(JsonNode, String, String, String)} with field names matched as {@code names} says. */
    public static Result decode(JsonNode object, String namespace, String name, String uid, Names names) {
        try {
            return new Decoded(new PodJson(names).pod(object, namespace, name, uid));
        } catch (BadField e) {
            return new Undecodable(e.getMessage());
        }
    }

    private final Names names;

    private PodJson(Names names) {
        this.names = names;
    }

    /** The value of struct field {@code name}, or null when absent. */
    private JsonNode field(JsonNode parent, String name) {
        return names == Names.GO ? GoFields.get(parent, name) : parent.get(name);
    }

    private PodSpec pod(JsonNode object, String namespace, String name, String uid) {
        if (object == null || !object.isObject()) {
            throw new BadField("request.object: expected a Pod object");
        }
        JsonNode meta = object(object, "metadata");
        JsonNode spec = object(object, "spec");
        return new PodSpec(
                orElse(text(meta, "name", "metadata.name"), name),
                orElse(text(meta, "namespace", "metadata.namespace"), namespace),
                orElse(text(meta, "uid", "metadata.uid"), uid),
                text(spec, "schedulerName", "spec.schedulerName"),
                text(spec, "nodeName", "spec.nodeName"),
                text(spec, "runtimeClassName", "spec.runtimeClassName"),
                strings(field(meta, "annotations"), "metadata.annotations"),
                strings(field(meta, "labels"), "metadata.labels"),
                containers(field(spec, "initContainers"), "spec.initContainers"),
                containers(field(spec, "containers"), "spec.containers"));
    }

    private List<Container> containers(JsonNode array, String path) {
        if (isAbsent(array)) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new BadField(path + ": expected an array");
        }
        List<Container> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(container(array.get(i), path + "[" + i + "]"));
        }
        return out;
    }

    private Container container(JsonNode c, String path) {
        if (!c.isObject()) {
            throw new BadField(path + ": expected an object");
        }
        JsonNode resources = field(c, "resources");
        if (!isAbsent(resources) && !resources.isObject()) {
            throw new BadField(path + ".resources: expected an object");
        }
        JsonNode limits = isAbsent(resources) ? null : field(resources, "limits");
        JsonNode requests = isAbsent(resources) ? null : field(resources, "requests");
        JsonNode security = field(c, "securityContext");
        if (!isAbsent(security) && !security.isObject()) {
            throw new BadField(path + ".securityContext: expected an object");
        }
        JsonNode privileged = isAbsent(security) ? null : field(security, "privileged");
        if (!isAbsent(privileged) && !privileged.isBoolean()) {
            throw new BadField(path + ".securityContext.privileged: expected a boolean");
        }
        return new Container(text(c, "name", path + ".name"), quantities(limits, path + ".resources.limits"),
                quantities(requests, path + ".resources.requests"), !isAbsent(privileged) && privileged.booleanValue(),
                env(field(c, "env"), path + ".env"));
    }

    private List<Container.EnvVar> env(JsonNode array, String path) {
        if (isAbsent(array)) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new BadField(path + ": expected an array");
        }
        List<Container.EnvVar> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode e = array.get(i);
            String at = path + "[" + i + "]";
            if (!e.isObject()) {
                throw new BadField(at + ": expected an object");
            }
            String value = field(e, "value") != null ? text(e, "value", at + ".value") : null;
            out.add(new Container.EnvVar(text(e, "name", at + ".name"), value));
        }
        return out;
    }

    private static Map<String, String> quantities(JsonNode node, String path) {
        if (isAbsent(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new BadField(path + ": expected an object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            JsonNode v = e.getValue();
            if (v.isTextual()) {
                out.put(e.getKey(), v.textValue());
            } else if (v.isNumber()) {
                out.put(e.getKey(), v.asText());
            } else {
                throw new BadField(path + "[\"" + e.getKey() + "\"]: expected a quantity string or number");
            }
        }
        return out;
    }

    private static Map<String, String> strings(JsonNode node, String path) {
        if (isAbsent(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new BadField(path + ": expected an object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getValue().isTextual()) {
                throw new BadField(path + "[\"" + e.getKey() + "\"]: expected a string");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    private JsonNode object(JsonNode parent, String name) {
        JsonNode n = field(parent, name);
        if (isAbsent(n)) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!n.isObject()) {
            throw new BadField(name + ": expected an object");
        }
        return n;
    }

    /** The string at {@code field}; null when absent or JSON null. */
    private String text(JsonNode parent, String name, String path) {
        JsonNode n = field(parent, name);
        if (isAbsent(n)) {
            return null;
        }
        if (!n.isTextual()) {
            throw new BadField(path + ": expected a string");
        }
        return n.textValue();
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static boolean isAbsent(JsonNode n) {
        return n == null || n.isNull();
    }

    /** A field of the wrong type; caught in {@link #decode}, never escapes. */
    private static final class BadField extends RuntimeException {

        private static final long serialVersionUID = 1L;

        BadField(String message) {
            super(message, null, false, false);
        }
    }
}
