package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The vectors' compact pod form ↔ the Pod JSON the API server puts in an AdmissionReview (test code).
 * Shaped like the API server's serialisation: {@code resources} is always present (Go does not omit
 * structs), {@code limits}, {@code requests}, {@code env}, {@code securityContext} and empty spec
 * strings are omitted, {@code runtimeClassName} only when set.
 */
public final class KubePodJson {

    private KubePodJson() {
    }

    /** The Pod JSON of a compact pod. */
    public static ObjectNode toKube(JsonNode compact) {
        return toKube(VectorJson.pod(compact));
    }

    /** The Pod JSON of a pod. */
    public static ObjectNode toKube(PodSpec pod) {
        ObjectNode root = VectorJson.MAPPER.createObjectNode();
        root.put("apiVersion", "v1");
        root.put("kind", "Pod");
        ObjectNode meta = root.putObject("metadata");
        putIfNotEmpty(meta, "name", pod.name());
        putIfNotEmpty(meta, "namespace", pod.namespace());
        putIfNotEmpty(meta, "uid", pod.uid());
        putMapIfNotEmpty(meta, "annotations", pod.annotations());
        putMapIfNotEmpty(meta, "labels", pod.labels());
        ObjectNode spec = root.putObject("spec");
        putIfNotEmpty(spec, "schedulerName", pod.schedulerName());
        putIfNotEmpty(spec, "nodeName", pod.nodeName());
        if (pod.runtimeClassName() != null) {
            spec.put("runtimeClassName", pod.runtimeClassName());
        }
        if (!pod.initContainers().isEmpty()) {
            ArrayNode init = spec.putArray("initContainers");
            pod.initContainers().forEach(c -> init.add(container(c)));
        }
        ArrayNode app = spec.putArray("containers");
        pod.containers().forEach(c -> app.add(container(c)));
        return root;
    }

    /** The pod a Pod JSON describes. */
    public static PodSpec fromKube(JsonNode kube) {
        JsonNode meta = kube.path("metadata");
        JsonNode spec = kube.path("spec");
        JsonNode rc = spec.get("runtimeClassName");
        return new PodSpec(VectorJson.text(meta, "name"), VectorJson.text(meta, "namespace"),
                VectorJson.text(meta, "uid"), VectorJson.text(spec, "schedulerName"), VectorJson.text(spec, "nodeName"),
                rc == null || rc.isNull() ? null : rc.asText(), VectorJson.stringMap(meta.get("annotations")),
                VectorJson.stringMap(meta.get("labels")), containers(spec.get("initContainers")),
                containers(spec.get("containers")));
    }

    private static List<Container> containers(JsonNode array) {
        List<Container> out = new ArrayList<>();
        if (array != null) {
            for (JsonNode c : array) {
                List<Container.EnvVar> env = new ArrayList<>();
                c.path("env").forEach(v -> env.add(new Container.EnvVar(VectorJson.text(v, "name"),
                        VectorJson.text(v, "value"))));
                out.add(new Container(VectorJson.text(c, "name"), VectorJson.stringMap(c.path("resources").get("limits")),
                        VectorJson.stringMap(c.path("resources").get("requests")),
                        c.path("securityContext").path("privileged").asBoolean(false), env));
            }
        }
        return out;
    }

    private static ObjectNode container(Container c) {
        ObjectNode o = VectorJson.MAPPER.createObjectNode();
        o.put("name", c.name());
        o.put("image", "busybox");
        ObjectNode resources = o.putObject("resources");
        putMapIfNotEmpty(resources, "limits", c.limits());
        putMapIfNotEmpty(resources, "requests", c.requests());
        if (!c.env().isEmpty()) {
            ArrayNode env = o.putArray("env");
            c.env().forEach(v -> env.addObject().put("name", v.name()).put("value", v.value()));
        }
        if (c.privileged()) {
            o.putObject("securityContext").put("privileged", true);
        }
        return o;
    }

    private static void putIfNotEmpty(ObjectNode o, String field, String value) {
        if (value != null && !value.isEmpty()) {
            o.put(field, value);
        }
    }

    private static void putMapIfNotEmpty(ObjectNode o, String field, Map<String, String> map) {
        if (!map.isEmpty()) {
            ObjectNode m = o.putObject(field);
            map.forEach(m::put);
        }
    }
}
