package io.vgpu.state.model;

import java.util.Objects;

/**
 * What one pod holds on one node: either a reservation made by {@code /filter} that expires at its
 * deadline, or a binding (the pod was confirmed by {@code /bind} or seen bound by the informers).
 * Immutable. See {@link NodeState} for the transitions between the two.
 */
public sealed interface PodCharge {

    /** The devices the pod holds, per container. */
    PodAllocation allocation();

    /** The pod's namespace. */
    String podNamespace();

    /** The pod's name. */
    String podName();

    /** Returns true when this charge is a live or expired reservation (not yet bound). */
    default boolean isReserved() {
        return this instanceof Reserved;
    }

    /**
     * An unconfirmed reservation (kube's "assumed" pod).
     *
     * @param allocation     the devices reserved
     * @param deadlineMillis epoch millis at which the reservation expires (live while {@code now < deadline})
     * @param podNamespace   pod namespace
     * @param podName        pod name
     */
    record Reserved(PodAllocation allocation, long deadlineMillis, String podNamespace, String podName)
            implements PodCharge {

        /** Requires an allocation; null names become "". */
        public Reserved {
            Objects.requireNonNull(allocation, "allocation");
            podNamespace = podNamespace == null ? "" : podNamespace;
            podName = podName == null ? "" : podName;
        }

        /** Returns true when the reservation has expired at {@code nowMillis}. */
        public boolean expiredAt(long nowMillis) {
            return deadlineMillis <= nowMillis;
        }
    }

    /**
     * A charge of a bound pod: it lasts until the pod ends or is deleted, never expires and never turns back
     * into a reservation.
     *
     * @param allocation   the devices held
     * @param podNamespace pod namespace
     * @param podName      pod name
     */
    record Bound(PodAllocation allocation, String podNamespace, String podName) implements PodCharge {

        /** Requires an allocation; null names become "". */
        public Bound {
            Objects.requireNonNull(allocation, "allocation");
            podNamespace = podNamespace == null ? "" : podNamespace;
            podName = podName == null ? "" : podName;
        }
    }
}
