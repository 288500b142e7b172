package io.vgpu.gateway.webhook;

/**
 * What the webhook endpoint writes: an HTTP status (200 except when there is no uid to echo), the
 * AdmissionReview JSON, and the outcome for metrics.
 *
 * @param httpStatus HTTP status of the reply
 * @param body       AdmissionReview JSON (UTF-8)
 * @param outcome    how the request ended
 */
public record WebhookReply(int httpStatus, byte[] body, Outcome outcome) {

    /** How one webhook request ended; the {@code outcome} tag of the webhook metrics. */
    public enum Outcome {
        /** Admitted (with or without a patch). */
        ALLOWED,
        /** Refused by policy (code 403). */
        DENIED,
        /** Refused as errored: undecodable pod, mutation error, or an internal error under failurePolicy Fail. */
        ERRORED,
        /** An internal error admitted unchanged under failurePolicy Ignore. */
        FAILED_OPEN,
        /** Past the in-flight bound; answered per failurePolicy. */
        OVERLOADED,
        /** The request itself was unusable: empty, too large, wrong content type, not an AdmissionReview. */
        BAD_REQUEST;

        /** The tag value, e.g. {@code failed_open}. */
        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
