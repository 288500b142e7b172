package io.vgpu.gateway.core.nodelock;

/** What {@link ReleaseNodeLock} tells the adapter to do next. */
public sealed interface ReleaseStep
        permits ReleaseStep.Remove, ReleaseStep.Patch, ReleaseStep.Leave, ReleaseStep.Retry, ReleaseStep.Failed {

    /** Why the lock is left in place; each is a successful release. */
    enum LeaveReason {
        /** There is no lock (or it is already gone). */
        NOT_LOCKED,
        /** The lock names another pod and the owner check is on. */
        NOT_OWNER,
        /** Between the first read and now the lock changed hands (or value): someone else's lock now. */
        CHANGED
    }

    /**
     * Start the removal attempts; each re-reads the node and calls {@link ReleaseNodeLock#recheck} with
     * {@code expectedLock}.
     *
     * @param expectedLock the lock value the first read showed
     */
    record Remove(String expectedLock) implements ReleaseStep {
    }

    /**
     * Remove with {@code NodeLockCodec.removePatch(<resourceVersion just read>)}; error (409 included) ⇒
     * next attempt.
     */
    record Patch() implements ReleaseStep {
    }

    /**
     * Done without removing anything; the release succeeds.
     *
     * @param reason why
     */
    record Leave(LeaveReason reason) implements ReleaseStep {
    }

    /**
     * The read failed: try again if attempts are left (release retries on any error).
     *
     * @param error the cause
     */
    record Retry(String error) implements ReleaseStep {
    }

    /**
     * The first read failed: the release fails.
     *
     * @param message the error text
     */
    record Failed(String message) implements ReleaseStep {
    }
}
