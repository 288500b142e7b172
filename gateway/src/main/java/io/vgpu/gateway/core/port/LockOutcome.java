package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.nodelock.LockStep;

/**
 * The result of {@link NodeLockPort#lock}: HAMi's {@code LockNode} (spec §11.2) as an outcome.
 *
 * <pre>
 *  Acquired(FREE | EXPIRED | DANGLING)  the lock now names the pod (a stale lock was removed first)
 *  Acquired(ALREADY_HELD)               the lock already named the pod: nothing written (re-entrant)
 *  Contended                            a live pod holds it: the retryable class ("... node lock contention")
 *  Failed                               not retryable: node unreadable, malformed lock, owner lookup failed,
 *                                       attempts exhausted on non-contention errors
 * </pre>
 */
public sealed interface LockOutcome permits LockOutcome.Acquired, LockOutcome.Contended, LockOutcome.Failed {

    /** How the lock was obtained. */
    enum How {
        /** The node had no lock. */
        FREE,
        /** An expired lock was taken over. */
        EXPIRED,
        /** The owner pod of the previous lock no longer exists. */
        DANGLING,
        /** The lock already named this pod. */
        ALREADY_HELD;

        /** The port's view of the pure decision's take-over reason. */
        public static How of(LockStep.TakeOverReason reason) {
            return switch (reason) {
                case FREE -> FREE;
                case EXPIRED -> EXPIRED;
                case DANGLING -> DANGLING;
            };
        }
    }

    /** True for {@link Acquired}. */
    boolean acquired();

    /** "" for {@link Acquired}, else HAMi's error text. */
    String message();

    /**
     * The pod holds the node lock.
     *
     * @param how       how it was obtained
     * @param lockValue the annotation value now on the node ({@code <RFC3339>,<ns>,<name>}); for
     *                  {@link How#ALREADY_HELD} the value that was found
     */
    record Acquired(How how, String lockValue) implements LockOutcome {

        @Override
        public boolean acquired() {
            return true;
        }

        @Override
        public String message() {
            return "";
        }
    }

    /**
     * Another live pod holds the lock; retrying later may succeed.
     *
     * @param message e.g. {@code node n1 has been locked within 5m0s: node lock contention}
     */
    record Contended(String message) implements LockOutcome {

        @Override
        public boolean acquired() {
            return false;
        }
    }

    /**
     * The lock could not be taken and retrying will not help by itself.
     *
     * @param message HAMi's error text
     */
    record Failed(String message) implements LockOutcome {

        @Override
        public boolean acquired() {
            return false;
        }
    }
}
