package io.vgpu.gateway.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.conformance.JsonPatchApplier;
import io.vgpu.gateway.core.webhook.PatchOp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Golden AdmissionReview files under {@code src/test/resources/admission/} and JSON Patch helpers. */
final class AdmissionFixtures {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private AdmissionFixtures() {
    }

    /** The bytes of {@code admission/<name>}, or null when there is no such file. */
    static byte[] bytes(String name) {
        try (InputStream in = AdmissionFixtures.class.getResourceAsStream("/admission/" + name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON of {@code admission/<name>}, or null when there is no such file. */
    static JsonNode json(String name) {
        byte[] b = bytes(name);
        try {
            return b == null ? null : MAPPER.readTree(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a response body. */
    static JsonNode parse(byte[] body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The response with its base64 {@code patch} replaced by the decoded JSON Patch array. */
    static JsonNode withDecodedPatch(JsonNode review) {
        JsonNode copy = review.deepCopy();
        ObjectNode response = (ObjectNode) copy.get("response");
        if (response.has("patch")) {
            response.set("patch", parse(Base64.getDecoder().decode(response.get("patch").asText())));
        }
        return copy;
    }

    /** The patch of a response as ops (empty when there is none). */
    static List<PatchOp> patchOps(JsonNode review) {
        JsonNode patch = review.path("response").get("patch");
        List<PatchOp> ops = new ArrayList<>();
        if (patch == null) {
            return ops;
        }
        for (JsonNode op : parse(Base64.getDecoder().decode(patch.asText()))) {
            Object value = op.has("value") ? MAPPER.convertValue(op.get("value"), Object.class) : null;
            PatchOp.Op kind = PatchOp.Op.valueOf(op.get("op").asText().toUpperCase(java.util.Locale.ROOT));
            ops.add(new PatchOp(kind, op.get("path").asText(), value));
        }
        return ops;
    }

    /** Applies the response's patch to the review's pod with a strict RFC 6902 applier. */
    static JsonNode patchedPod(JsonNode review, JsonNode response) {
        return JsonPatchApplier.apply(review.path("request").path("object"), patchOps(response));
    }
}
