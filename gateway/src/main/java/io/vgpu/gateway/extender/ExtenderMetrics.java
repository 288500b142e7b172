package io.vgpu.gateway.extender;

import io.vgpu.gateway.scheduling.DecisionFailure;

/**
 * Where the extender verbs record what they decided: latency by outcome, why a decision failed, how often the
 * shared state refused a reservation, and how long binds waited for a node lock. Thread-safe, never blocking.
 * Every method but the two latencies records nothing by default.
 */
public interface ExtenderMetrics {

    /** Records nothing. */
    ExtenderMetrics NONE = new ExtenderMetrics() {
        @Override
        public void filter(String outcome, long nanos) {
        }

        @Override
        public void bind(String outcome, long nanos) {
        }
    };

    /** One {@code /filter} answered with {@code outcome} ({@code fit} | {@code nofit} | {@code error}). */
    void filter(String outcome, long nanos);

    /** One {@code /bind} answered with {@code outcome} ({@code bound} | {@code error}). */
    void bind(String outcome, long nanos);

    /**
     * One reservation the shared state refused (another replica took the capacity first, or this replica's view
     * was stale); {@code /filter} then tries the next-best node.
     */
    default void reserveConflict() {
    }

    /**
     * One {@code /filter} that placed nothing, and why: a {@link DecisionFailure#label()} (the outcome's cause).
     */
    default void filterFailed(String reason) {
    }

    /**
     * In a {@code /filter} that placed nothing, {@code nodes} nodes rejected for {@code reason} (HAMi's reason
     * word, e.g. {@code CardInsufficientMemory}): the cluster-wide "why are pods pending" view.
     */
    default void nodesRejected(String reason, int nodes) {
    }

    /** One failed {@code /bind}, and why: a {@link DecisionFailure#label()} (the refusal's cause). */
    default void bindFailed(String reason) {
    }

    /**
     * One bind's wait for its node's lock (shared-state lock, then the {@code hami.io/mutex.lock} annotation),
     * ending with {@code outcome}: {@code acquired}, {@code timeout} (still contended at the wait's bound) or
     * {@code failed}.
     */
    default void lockWait(String outcome, long nanos) {
    }

    /** One try of a bind found its node's lock held by another pod; the bind waits and tries again. */
    default void lockContended() {
    }

    /** Counts one request to {@code endpoint} answered "overloaded" (the in-flight bound was reached). */
    default void overloaded(String endpoint) {
    }
}
