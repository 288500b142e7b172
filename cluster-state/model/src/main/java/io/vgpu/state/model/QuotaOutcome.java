package io.vgpu.state.model;

/**
 * The answer to {@link ClusterState#reserveQuota}.
 * <pre>
 *   Reserved(deadline)       the namespace usage now includes the pod's charge
 *   Exceeded(memory, cores)  an enforced limit would be exceeded (which ones); the pod's earlier charge is kept
 * </pre>
 */
public sealed interface QuotaOutcome {

    /** Returns true for {@link Reserved}. */
    default boolean isReserved() {
        return this instanceof Reserved;
    }

    /**
     * The charge is held.
     *
     * @param deadlineMillis when it expires unless confirmed; {@link QuotaCharge#NO_DEADLINE} once bound
     */
    record Reserved(long deadlineMillis) implements QuotaOutcome {
    }

    /**
     * The quota rule refused the charge.
     *
     * @param memory whether the memory limit would be exceeded
     * @param cores  whether the core limit would be exceeded
     */
    record Exceeded(boolean memory, boolean cores) implements QuotaOutcome {
    }
}
