package io.vgpu.gateway.webhook;

/**
 * What the webhook answers when it cannot decide (an unexpected internal error, or overload). Must
 * match the {@code failurePolicy} of the chart's MutatingWebhookConfiguration, so that the pod sees the
 * same outcome whether the gateway answers or the API server gives up on it.
 */
public enum FailurePolicy {
    /** Fail closed: the pod is refused (errored, {@code allowed:false}). */
    FAIL("Fail"),
    /** Fail open: the pod is admitted unchanged (HAMi chart default). */
    IGNORE("Ignore");

    private final String wire;

    FailurePolicy(String wire) {
        this.wire = wire;
    }

    /** The Kubernetes spelling, {@code Fail} or {@code Ignore}. */
    public String wire() {
        return wire;
    }

    /** The policy with the Kubernetes spelling {@code wire}. */
    public static FailurePolicy of(String wire) {
        for (FailurePolicy p : values()) {
            if (p.wire.equals(wire)) {
                return p;
            }
        }
        throw new IllegalArgumentException("expected Fail or Ignore");
    }
}
