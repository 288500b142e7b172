package io.vgpu.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;

import java.util.Map;
import java.util.UUID;

/**
 * The Kubernetes objects the simulator creates in its API server, shaped as a user or kubelet would write them:
 * a generated pod as its Pod manifest, a synthetic node as its Node object (the device plugin's annotations, and
 * {@code nvidia.com/gpu} allocatable as kubelet reports it from the plugin's device list).
 */
final class Manifests {

    static final ObjectMapper JSON = new ObjectMapper();

    private Manifests() {
    }

    /** The Pod manifest of a generated pod (before admission: no {@code schedulerName} unless it set one). */
    static ObjectNode pod(PodSpec pod) {
        ObjectNode root = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = root.putObject("metadata");
        meta.put("name", pod.name());
        meta.put("namespace", pod.namespace());
        putIfNotEmpty(meta, "uid", pod.uid());
        putMapIfNotEmpty(meta, "annotations", pod.annotations());
        putMapIfNotEmpty(meta, "labels", pod.labels());
        ObjectNode spec = root.putObject("spec");
        putIfNotEmpty(spec, "schedulerName", pod.schedulerName());
        if (!pod.initContainers().isEmpty()) {
            ArrayNode init = spec.putArray("initContainers");
            pod.initContainers().forEach(c -> init.add(container(c)));
        }
        ArrayNode app = spec.putArray("containers");
        pod.containers().forEach(c -> app.add(container(c)));
        return root;
    }

    /** An {@code admission.k8s.io/v1} AdmissionReview asking to CREATE {@code manifest} in {@code namespace}. */
    static ObjectNode admissionReview(ObjectNode manifest, String namespace) {
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request").put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
        request.putObject("resource").put("group", "").put("version", "v1").put("resource", "pods");
        request.put("namespace", namespace).put("operation", "CREATE");
        request.putObject("userInfo").put("username", "system:simulate");
        request.set("object", manifest);
        return review;
    }

    /**
     * The Node object of a synthetic node: its device-plugin annotations, and allocatable/capacity
     * {@code <gpuResource>} = the number of virtual devices it registered (what the plugin's ListAndWatch
     * advertises), so the gateway's health check sees a live device plugin.
     */
    static ObjectNode node(SyntheticNode node, String gpuResource, long virtualDevices) {
        ObjectNode root = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Node");
        ObjectNode meta = root.putObject("metadata");
        meta.put("name", node.name());
        meta.putObject("labels").put("kubernetes.io/hostname", node.name()).put("gpu", "on");
        putMapIfNotEmpty(meta, "annotations", node.annotations());
        ObjectNode status = root.putObject("status");
        for (String field : new String[] {"capacity", "allocatable"}) {
            status.putObject(field).put("cpu", "64").put("memory", "512Gi").put("pods", "110")
                    .put(gpuResource, Long.toString(virtualDevices));
        }
        return root;
    }

    private static ObjectNode container(Container c) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", c.name());
        o.put("image", "registry.invalid/simulated:latest");
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
