package io.vgpu.gateway.scheduling;

/** The end of {@link NodeLocks#acquire}: whether the pod holds its node's two locks. */
sealed interface LockAcquisition {
    /** Both locks are held by the pod. */
    record Held() implements LockAcquisition {
    }

    /**
     * The pod holds neither lock.
     *
     * @param cause   {@link DecisionFailure#LOCK_TIMEOUT}, {@link DecisionFailure#NODE_UNREGISTERED} or
     *                {@link DecisionFailure#LOCK_FAILED}
     * @param message HAMi's text
     */
    record Refused(DecisionFailure cause, String message) implements LockAcquisition {
    }

    /**
     * The shared try decided without taking the lock (a bind's confirmation refused, or found the pod bound
     * already): the pod holds neither lock, and the try's own answer says why.
     */
    record Declined() implements LockAcquisition {
    }
}
