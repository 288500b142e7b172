package io.vgpu.gateway.webhook;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Decodes the envelope of an {@code AdmissionReview} ({@code admission.k8s.io/v1} or {@code v1beta1},
 * which have the same shape for what is read here): apiVersion, {@code request.uid},
 * {@code request.namespace}, {@code request.name} and {@code request.object} (left as JSON). Never
 * throws on bad input: every failure is a {@link Review} value.
 */
final class AdmissionReviewDecoder {

    /** {@code admission.k8s.io/v1}. */
    static final String V1 = "admission.k8s.io/v1";
    /** {@code admission.k8s.io/v1beta1} (what HAMi's chart registers). */
    static final String V1BETA1 = "admission.k8s.io/v1beta1";
    /** The kind of both request and response. */
    static final String KIND = "AdmissionReview";

    private final ObjectMapper mapper;

    AdmissionReviewDecoder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The outcome of decoding one body. */
    sealed interface Review permits Request, Undecodable, MissingUid {
    }

    /**
     * A well-formed review.
     *
     * @param apiVersion echoed in the response
     * @param uid        {@code request.uid}, never empty
     * @param namespace  {@code request.namespace} ("" when absent)
     * @param name       {@code request.name} ("" when absent)
     * @param object     {@code request.object} (null when absent)
     * @param dryRun     {@code request.dryRun}: the API server will not persist the pod (no side effects allowed)
     */
    record Request(String apiVersion, String uid, String namespace, String name, JsonNode object, boolean dryRun)
            implements Review {
    }

    /**
     * Not an AdmissionReview this webhook understands.
     *
     * @param apiVersion the version to answer with
     * @param uid        the request uid when it could be read, else ""
     * @param message    what is wrong
     */
    record Undecodable(String apiVersion, String uid, String message) implements Review {
    }

    /**
     * An AdmissionReview without {@code request.uid}: there is nothing to echo, so no response can be
     * matched to it.
     *
     * @param apiVersion its apiVersion
     * @param message    what is missing
     */
    record MissingUid(String apiVersion, String message) implements Review {
    }

    /** Decodes {@code body} (non-empty). */
    Review decode(byte[] body) {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (JacksonException e) {
            return new Undecodable(V1, "", "couldn't decode AdmissionReview: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            return new Undecodable(V1, "", "couldn't read AdmissionReview: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            return new Undecodable(V1, "", "couldn't decode AdmissionReview: expected a JSON object");
        }
        JsonNode request = root.get("request");
        String uid = request != null && request.path("uid").isTextual() ? request.get("uid").textValue() : "";
        String apiVersion = root.path("apiVersion").asText("");
        String kind = root.path("kind").asText("");
        if (!(apiVersion.equals(V1) || apiVersion.equals(V1BETA1)) || !kind.equals(KIND)) {
            return new Undecodable(V1, uid, "unsupported review \"" + apiVersion + ", Kind=" + kind
                    + "\" (expected " + V1 + " or " + V1BETA1 + ", Kind=" + KIND + ")");
        }
        if (request == null || !request.isObject()) {
            return new MissingUid(apiVersion, "AdmissionReview has no request");
        }
        if (uid.isEmpty()) {
            return new MissingUid(apiVersion, "AdmissionReview request has no uid");
        }
        JsonNode object = request.get("object");
        return new Request(apiVersion, uid, request.path("namespace").asText(""), request.path("name").asText(""),
                object == null || object.isNull() ? null : object, request.path("dryRun").asBoolean(false));
    }
}
