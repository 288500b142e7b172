package io.vgpu.gateway.core.webhook;

import io.vgpu.gateway.core.PodSpec;

import java.util.List;

/**
 * The webhook's answer for one pod CREATE (spec §5.2–§5.3). The HTTP edge maps it to an
 * AdmissionResponse: {@link Allowed} → {@code allowed:true}, status {@code {code:200, message?}} and
 * the patch (none when empty); {@link Denied} → {@code allowed:false}, status
 * {@code {code:403, reason:"Forbidden", message}}; {@link Errored} → {@code allowed:false}, status
 * {@code {code, message}} without a reason.
 */
public sealed interface AdmissionDecision permits AdmissionDecision.Allowed, AdmissionDecision.Denied,
        AdmissionDecision.Errored {

    /** The status message ("" when none). */
    String message();

    /** The status code. */
    int code();

    /**
     * The pod is admitted.
     *
     * @param message  status message ("" when none)
     * @param patch    targeted JSON Patch operations turning the incoming pod into {@code podAfter}; empty = no patch
     * @param podAfter the pod after mutation
     */
    record Allowed(String message, List<PatchOp> patch, PodSpec podAfter) implements AdmissionDecision {

        /** Copies the patch; null message becomes "". */
        public Allowed {
            message = message == null ? "" : message;
            patch = List.copyOf(patch);
        }

        @Override
        public int code() {
            return 200;
        }
    }

    /**
     * A policy denial (controller-runtime {@code admission.Denied}).
     *
     * @param message the reason shown to the user
     */
    record Denied(String message) implements AdmissionDecision {

        /** The status reason of a denial. */
        public static final String REASON = "Forbidden";

        @Override
        public int code() {
            return 403;
        }

        /** Always {@value #REASON}. */
        public String reason() {
            return REASON;
        }
    }

    /**
     * The request could not be processed (controller-runtime {@code admission.Errored}).
     *
     * @param code    400 (undecodable pod) or 500 (mutation error)
     * @param message the error text
     */
    record Errored(int code, String message) implements AdmissionDecision {
    }
}
