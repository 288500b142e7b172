package io.vgpu.gateway.core.nodelock;

/**
 * What {@link LockNode#decide} tells the adapter to do next. Terminal steps: {@link AlreadyHeld},
 * {@link Contended}, {@link Failed}. {@link Acquire} hands over to {@link SetNodeLock} (after removing
 * a stale lock when it names one); {@link LookUpOwner} needs one {@code GET pod} and is then resolved.
 */
public sealed interface LockStep
        permits LockStep.Acquire, LockStep.AlreadyHeld, LockStep.LookUpOwner, LockStep.Contended, LockStep.Failed {

    /** Why a lock is taken over. */
    enum TakeOverReason {
        /** No lock was present. */
        FREE,
        /** The lock is older than the timeout. */
        EXPIRED,
        /** The owner pod no longer exists. */
        DANGLING
    }

    /**
     * Take the lock. When {@code staleLock} is not null, first release it with
     * {@code ReleaseNodeLock(skipOwnerCheck = true)}, then run {@link SetNodeLock}.
     *
     * @param staleLock the lock value to clear first, or null when the node is free
     * @param reason    why the lock may be taken
     */
    record Acquire(String staleLock, TakeOverReason reason) implements LockStep {
    }

    /** The lock already names the requesting pod (each vendor locks separately): success, nothing to write. */
    record AlreadyHeld() implements LockStep {
    }

    /**
     * The lock names another pod and is not expired: look that pod up, then call {@link #resolve}.
     *
     * @param owner      the pod the lock names
     * @param lock       the lock value seen
     * @param contention the message to fail with when the owner exists
     */
    record LookUpOwner(NamespacedName owner, String lock, String contention) implements LockStep {

        /** Owner gone ⇒ take over; owner present ⇒ contention; lookup error ⇒ fail. */
        public LockStep resolve(OwnerLookup lookup) {
            if (lookup instanceof OwnerLookup.Failed failed) {
                return new Failed(failed.error());
            }
            return lookup instanceof OwnerLookup.NotFound
                    ? new Acquire(lock, TakeOverReason.DANGLING)
                    : new Contended(contention);
        }
    }

    /**
     * Another live pod holds the lock: the retryable class ({@code ... : node lock contention}).
     *
     * @param message the error text
     */
    record Contended(String message) implements LockStep {
    }

    /**
     * Not retryable: the node could not be read, the lock value is malformed, the owner lookup failed.
     *
     * @param message the error text
     */
    record Failed(String message) implements LockStep {
    }
}
