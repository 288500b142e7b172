package io.vgpu.gateway.scheduling;

import java.util.Objects;

/**
 * What one {@code /bind} came to ({@link BindService#bind}), protocol-free; the extender handler answers
 * {@code {"Error":""}} or the message, and counts the cause.
 */
public sealed interface BindOutcome {

    /** The success answer. */
    Bound BOUND = new Bound();

    /** The pod is bound to the node (now, or by an earlier bind of the same pod). */
    record Bound() implements BindOutcome {
    }

    /**
     * Nothing bound; what this bind took (the node locks) is released.
     *
     * @param cause   why, for the failure counter
     * @param message HAMi's text for the extender's {@code Error}
     */
    record Refused(DecisionFailure cause, String message) implements BindOutcome {

        /** Requires the cause; a null message becomes "". */
        public Refused {
            Objects.requireNonNull(cause, "cause");
            message = message == null ? "" : message;
        }
    }
}
