package io.vgpu.state.model;

/**
 * The answer to {@link ClusterState#reserve}: expected rejections are values, not exceptions.
 * <pre>
 *   Reserved     the pod holds the allocation until deadlineMillis (also: the same reservation again)
 *   Refused      the authoritative usage no longer admits it (a lost race): try the next node
 *   AlreadyBound the pod is bound on this node (with the allocation it carries); nothing changed
 *   UnknownNode  the node is not registered
 * </pre>
 */
public sealed interface ReserveOutcome {

    /** Returns true for {@link Reserved}. */
    default boolean isReserved() {
        return this instanceof Reserved;
    }

    /**
     * The pod holds the allocation.
     *
     * @param deadlineMillis when the reservation expires unless confirmed (the later of an identical earlier
     *                       reservation's deadline and the requested one)
     */
    record Reserved(long deadlineMillis) implements ReserveOutcome {
    }

    /** The capacity re-check ({@link AllocationCheck#admits}) refused it; the pod's earlier entry is kept. */
    record Refused() implements ReserveOutcome {
    }

    /**
     * The pod is already bound on this node (a bind confirmed it and was interrupted before the Binding); a binding
     * is never turned back into a reservation, and its devices stay the ones it was admitted with.
     *
     * @param allocation the allocation the binding holds: what the pod must be annotated with, whatever a later
     *                   decision would have chosen (only this one passed the capacity rule)
     */
    record AlreadyBound(PodAllocation allocation) implements ReserveOutcome {
    }

    /** The node has no registered inventory. */
    record UnknownNode() implements ReserveOutcome {
    }
}
