package io.vgpu.gateway.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.PatchOp;

import java.util.Base64;
import java.util.List;

/**
 * The one mapper from webhook outcomes to the AdmissionReview the API server reads (spec §5.2,
 * STYLE.md §5):
 * <pre>
 *   {"apiVersion": &lt;echoed&gt;, "kind": "AdmissionReview",
 *    "response": {"uid": &lt;echoed&gt;, "allowed": …, "status": {…},
 *                 "patch": &lt;base64 JSON Patch&gt;, "patchType": "JSONPatch"}}   (patch only when non-empty)
 * </pre>
 * {@code status} is always present: allowed → {@code {code:200[, message]}}; denied →
 * {@code {code:403, reason:"Forbidden", message}}; errored → {@code {code, message}}. Thread-safe.
 */
final class AdmissionResponses {

    private final ObjectMapper mapper;

    AdmissionResponses(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The response to a decision of the core. */
    byte[] decision(String apiVersion, String uid, AdmissionDecision decision) {
        if (decision instanceof AdmissionDecision.Allowed allowed) {
            return allowed(apiVersion, uid, allowed.message(), allowed.patch());
        }
        if (decision instanceof AdmissionDecision.Denied denied) {
            ObjectNode status = status(denied.code(), denied.message());
            status.put("reason", denied.reason());
            return write(apiVersion, uid, false, status, List.of(), List.of());
        }
        return errored(apiVersion, uid, decision.code(), decision.message());
    }

    /** Allowed with {@code patch} (none when empty) and an optional message. */
    byte[] allowed(String apiVersion, String uid, String message, List<PatchOp> patch) {
        return write(apiVersion, uid, true, status(200, message), patch, List.of());
    }

    /** As {@link #allowed(String, String, String, List)}, with {@code response.warnings} (left out when empty). */
    byte[] allowed(String apiVersion, String uid, String message, List<PatchOp> patch, List<String> warnings) {
        return write(apiVersion, uid, true, status(200, message), patch, warnings);
    }

    /** Errored ({@code allowed:false}, no reason). */
    byte[] errored(String apiVersion, String uid, int code, String message) {
        return write(apiVersion, uid, false, status(code, message), List.of(), List.of());
    }

    private ObjectNode status(int code, String message) {
        ObjectNode status = mapper.createObjectNode();
        status.put("code", code);
        if (message != null && !message.isEmpty()) {
            status.put("message", message);
        }
        return status;
    }

    private byte[] write(String apiVersion, String uid, boolean allowed, ObjectNode status, List<PatchOp> patch,
                         List<String> warnings) {
        ObjectNode root = mapper.createObjectNode();
        root.put("apiVersion", apiVersion);
        root.put("kind", AdmissionReviewDecoder.KIND);
        ObjectNode response = root.putObject("response");
        response.put("uid", uid);
        response.put("allowed", allowed);
        response.set("status", status);
        if (!patch.isEmpty()) {
            response.put("patch", Base64.getEncoder().encodeToString(patchJson(patch)));
            response.put("patchType", "JSONPatch");
        }
        if (!warnings.isEmpty()) {
            warnings.forEach(response.putArray("warnings")::add);
        }
        try {
            return mapper.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            // a tree of plain values always serialises: unexpected
            throw new IllegalStateException("AdmissionReview not serialisable", e);
        }
    }

    private byte[] patchJson(List<PatchOp> patch) {
        ArrayNode ops = mapper.createArrayNode();
        for (PatchOp op : patch) {
            ObjectNode o = ops.addObject();
            o.put("op", op.op().wire());
            o.put("path", op.path());
            if (op.op() != PatchOp.Op.REMOVE) {
                o.set("value", mapper.valueToTree(op.value()));
            }
        }
        try {
            return mapper.writeValueAsBytes(ops);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("patch not serialisable", e);
        }
    }
}
