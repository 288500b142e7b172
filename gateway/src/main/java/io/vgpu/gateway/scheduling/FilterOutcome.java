package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.reason.NodeRejection;

import java.util.Map;
import java.util.Objects;

/**
 * What one {@code /filter} decided ({@link FilterService#filter}), protocol-free; the extender handler turns it into
 * HAMi's {@code ExtenderFilterResult} and counts it.
 * <pre>
 *   Placed(node)          reserved on node and the pod annotated: answer that one node
 *   NoFit(rejected)       no node could take it: every rejected node and why (cause NO_FIT, QUOTA_EXCEEDED or
 *                         RESERVATION_CONFLICT)
 *   Failed(message)       the whole call fails: the text for Error
 *   PassThrough           the pod asks for no HAMi resource: answer the request's node names unchanged
 * </pre>
 * Every outcome says how many reservations the shared state refused on the way ({@link #reserveConflicts}).
 */
public sealed interface FilterOutcome {

    /** Reservations the shared state refused before this outcome (another replica won the race). */
    int reserveConflicts();

    /**
     * The pod is reserved on {@code node} and annotated for it.
     *
     * @param node             the node to answer
     * @param reserveConflicts refused reservations on better-ranked nodes first
     */
    record Placed(String node, int reserveConflicts) implements FilterOutcome {

        /** Requires the node. */
        public Placed {
            Objects.requireNonNull(node, "node");
        }
    }

    /**
     * Nothing was placed; nothing stays reserved.
     *
     * @param rejected         node → why it was rejected
     * @param cause            {@link DecisionFailure#NO_FIT}, {@link DecisionFailure#QUOTA_EXCEEDED} or
     *                         {@link DecisionFailure#RESERVATION_CONFLICT}
     * @param reserveConflicts refused reservations
     */
    record NoFit(Map<String, NodeRejection> rejected, DecisionFailure cause, int reserveConflicts)
            implements FilterOutcome {

        /** Copies the map. */
        public NoFit {
            rejected = Map.copyOf(rejected);
            Objects.requireNonNull(cause, "cause");
        }
    }

    /**
     * The call failed as a whole; nothing stays reserved.
     *
     * @param message          the text for the extender's {@code Error}
     * @param cause            why
     * @param reserveConflicts refused reservations before the failure
     */
    record Failed(String message, DecisionFailure cause, int reserveConflicts) implements FilterOutcome {

        /** A null message becomes "". */
        public Failed {
            message = message == null ? "" : message;
            Objects.requireNonNull(cause, "cause");
        }
    }

    /** The pod asks for no HAMi resource. */
    record PassThrough() implements FilterOutcome {

        @Override
        public int reserveConflicts() {
            return 0;
        }
    }
}
