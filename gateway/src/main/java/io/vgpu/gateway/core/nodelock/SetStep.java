package io.vgpu.gateway.core.nodelock;

/** What {@link SetNodeLock} tells the adapter to do next. */
public sealed interface SetStep
        permits SetStep.Proceed, SetStep.Patch, SetStep.Done, SetStep.Contended, SetStep.Retry, SetStep.Failed {

    /** The pre-check passed: start the attempts. */
    record Proceed() implements SetStep {
    }

    /**
     * Write the lock with {@code NodeLockCodec.setPatch(value, <resourceVersion just read>)}. Success ⇒
     * acquired; any error (409 from a concurrent writer included) ⇒ next attempt.
     *
     * @param value the lock value to write
     */
    record Patch(String value) implements SetStep {
    }

    /** The lock already carries the requester's suffix (an earlier PATCH landed but its response was lost): acquired. */
    record Done() implements SetStep {
    }

    /**
     * Another lock is present: stop, not retried ({@code ... : node lock contention}).
     *
     * @param message the error text
     */
    record Contended(String message) implements SetStep {
    }

    /**
     * The read failed: try again if attempts are left.
     *
     * @param error the cause
     */
    record Retry(String error) implements SetStep {
    }

    /**
     * Stop with this error (not contention).
     *
     * @param message the error text
     */
    record Failed(String message) implements SetStep {
    }
}
