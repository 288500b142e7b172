package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.PodSpec;

import java.util.Base64;
import java.util.UUID;

/**
 * The simulator's Kubernetes objects for drivers outside this package (the load tests): a generated pod as the
 * Pod manifest the simulator creates, the {@code AdmissionReview} the API server would send for it, and the
 * webhook's JSONPatch applied the way the API server applies it. Stateless and thread-safe.
 */
public final class SimulatedObjects {

    private SimulatedObjects() {
    }

    /** The Pod manifest of a generated pod, as a user would write it (before admission). */
    public static ObjectNode pod(PodSpec pod) {
        return Manifests.pod(pod);
    }

    /** A v1 {@code AdmissionReview} of a CREATE of {@code manifest} in {@code namespace}, with a fresh request UID. */
    public static ObjectNode admissionReview(ObjectNode manifest, String namespace) {
        ObjectNode review = Manifests.JSON.createObjectNode()
                .put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request").put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
        request.putObject("resource").put("group", "").put("version", "v1").put("resource", "pods");
        request.put("namespace", namespace).put("operation", "CREATE");
        request.putObject("userInfo").put("username", "system:simulate");
        request.set("object", manifest);
        return review;
    }

    /**
     * Applies the webhook's base64-encoded JSONPatch ({@code response.patch}) to a copy of {@code manifest}, strictly
     * as the API server does; a null or empty patch returns the manifest unchanged.
     *
     * @throws IllegalArgumentException when the patch is not base64 JSON or cannot be applied
     */
    public static ObjectNode admitted(ObjectNode manifest, String base64Patch) {
        if (base64Patch == null || base64Patch.isEmpty()) {
            return manifest;
        }
        JsonNode patch;
        try {
            patch = Manifests.JSON.readTree(Base64.getDecoder().decode(base64Patch));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("undecodable JSONPatch: " + e.getMessage(), e);
        }
        return JsonPatch.apply(manifest, patch);
    }
}
