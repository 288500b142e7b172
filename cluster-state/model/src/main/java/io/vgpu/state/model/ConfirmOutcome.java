package io.vgpu.state.model;

/**
 * The answer to {@link ClusterState#confirm} ({@code /bind}'s first step).
 * <pre>
 *   Confirmed(RESERVATION)   a live reservation became Bound
 *   Confirmed(RE_RESERVED)   the reservation had expired (or was gone) and the allocation still fitted
 *   Confirmed(ALREADY_BOUND) the pod was bound already: a retried bind, nothing charged twice
 *   Refused                  expired and no longer admitted by the capacity rule
 *   Missing                  no entry for the pod and no allocation to re-reserve
 *   UnknownNode              the node is not registered
 * </pre>
 */
public sealed interface ConfirmOutcome {

    /** Returns true for {@link Confirmed}. */
    default boolean isConfirmed() {
        return this instanceof Confirmed;
    }

    /** How a confirmation succeeded. */
    enum Via {
        /** A live reservation was turned into a binding. */
        RESERVATION,
        /** The reservation had expired or was gone; the allocation was re-checked and charged. */
        RE_RESERVED,
        /** The pod was already bound on the node. */
        ALREADY_BOUND
    }

    /**
     * The pod is bound on the node.
     *
     * @param via how
     */
    record Confirmed(Via via) implements ConfirmOutcome {
    }

    /** The expired reservation no longer fits; nothing is charged for the pod. */
    record Refused() implements ConfirmOutcome {
    }

    /** Nothing to confirm: no entry for the pod and no fallback allocation. */
    record Missing() implements ConfirmOutcome {
    }

    /** The node has no registered inventory. */
    record UnknownNode() implements ConfirmOutcome {
    }
}
