package io.vgpu.gateway.webhook;

/**
 * What {@link WebhookHandler} counts, implemented by the gateway's metrics ({@code metrics.GatewayMetrics}) so that
 * the handler depends on no listener or registry. Implementations are thread-safe and never throw.
 */
public interface WebhookMetrics {

    /** Counts nothing (tests that look at answers only). */
    WebhookMetrics NONE = new WebhookMetrics() {
        @Override
        public void webhook(String outcome, long nanos) {
        }

        @Override
        public void overloaded(String endpoint) {
        }
    };

    /** One AdmissionReview answered with {@code outcome} after {@code nanos}. */
    void webhook(String outcome, long nanos);

    /** One request to {@code endpoint} answered "overloaded" (the in-flight bound was reached). */
    void overloaded(String endpoint);
}
