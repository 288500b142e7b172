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

    private PodJson() {
    }

    /** A decoded pod or the reason it could not be decoded. */
    public sealed interface Result permits Decoded, Undecodable {
    }

    /** @param pod the pod */
    public record Decoded(PodSpec pod) implements Result {
    }

    /** @param message what is wrong, with the JSON path */
    public record Undecodable(String message) implements Result {
    }

    /**
     * @param object    {@code request.object}
     * @param namespace {@code request.namespace}, used when the object has none (pods created without one)
     * @param name      {@code request.name}, used when the object has none
     * @param uid       used when the object has no {@code metadata.uid} (the AdmissionReview request uid)
     */
    public static Result decode(JsonNode object, String namespace, String name, String uid) {
        try {
            return new Decoded(pod(object, namespace, name, uid));
        } catch (BadField e) {
            return new Undecodable(e.getMessage());
        }
    }

    private static PodSpec pod(JsonNode object, String namespace, String name, String uid) {
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
                strings(meta.get("annotations"), "metadata.annotations"),
                strings(meta.get("labels"), "metadata.labels"),
                containers(spec.get("initContainers"), "spec.initContainers"),
                containers(spec.get("containers"), "spec.containers"));
    }

    private static List<Container> containers(JsonNode array, String path) {
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

    private static Container container(JsonNode c, String path) {
        if (!c.isObject()) {
            throw new BadField(path + ": expected an object");
        }
        JsonNode resources = c.get("resources");
        if (!isAbsent(resources) && !resources.isObject()) {
            throw new BadField(path + ".resources: expected an object");
        }
        JsonNode limits = isAbsent(resources) ? null : resources.get("limits");
        JsonNode requests = isAbsent(resources) ? null : resources.get("requests");
        JsonNode security = c.get("securityContext");
        if (!isAbsent(security) && !security.isObject()) {
            throw new BadField(path + ".securityContext: expected an object");
        }
        JsonNode privileged = isAbsent(security) ? null : security.get("privileged");
        if (!isAbsent(privileged) && !privileged.isBoolean()) {
            throw new BadField(path + ".securityContext.privileged: expected a boolean");
        }
        return new Container(text(c, "name", path + ".name"), quantities(limits, path + ".resources.limits"),
                quantities(requests, path + ".resources.requests"), !isAbsent(privileged) && privileged.booleanValue(),
                env(c.get("env"), path + ".env"));
    }

    private static List<Container.EnvVar> env(JsonNode array, String path) {
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
            String value = e.has("value") ? text(e, "value", at + ".value") : null;
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

    private static JsonNode object(JsonNode parent, String field) {
        JsonNode n = parent.get(field);
        if (isAbsent(n)) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!n.isObject()) {
            throw new BadField(field + ": expected an object");
        }
        return n;
    }

    /** The string at {@code field}; null when absent or JSON null. */
    private static String text(JsonNode parent, String field, String path) {
        JsonNode n = parent.get(field);
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
