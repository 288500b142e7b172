package io.vgpu.state.model;

import java.util.Objects;

/**
 * The answer to {@link ClusterState#confirmAndLock}: {@code /bind}'s confirmation and the shared node lock decided
 * in one atomic step on the node's key.
 * <pre>
 *   confirm Confirmed(RESERVATION | RE_RESERVED), lock Acquired | Held   both applied
 *   confirm Confirmed(RESERVATION | RE_RESERVED), lock Contended         NEITHER applied: wait for the holder, try again
 *   confirm anything else (ALREADY_BOUND, Refused, Missing, UnknownNode), lock null
 *                                                                        the confirmation's own outcome; no lock tried
 * </pre>
 * A pod that is bound already takes no lock here: its bind may be finished already (the device plugin released
 * the lock), and a lock taken again would be left with nobody to release it.
 *
 * @param confirm what the confirmation would do (or did, when {@link #applied()})
 * @param lock    the lock's outcome when the confirmation charged the pod now, else null
 */
public record ConfirmLockOutcome(ConfirmOutcome confirm, LockOutcome lock) {

    /** Requires a confirmation outcome; a lock outcome only after a confirmation that charged the pod now. */
    public ConfirmLockOutcome {
        Objects.requireNonNull(confirm, "confirm");
        if (lock != null && !(confirm instanceof ConfirmOutcome.Confirmed c
                && c.via() != ConfirmOutcome.Via.ALREADY_BOUND)) {
            throw new IllegalArgumentException("a lock outcome with confirmation " + confirm);
        }
    }

    /** Returns true when the pod is now charged and holds the lock (both steps applied). */
    public boolean applied() {
        return lock != null && lock.holds();
    }
}
