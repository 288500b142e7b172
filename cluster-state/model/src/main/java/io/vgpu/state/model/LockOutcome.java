package io.vgpu.state.model;

/**
 * The answer to {@link ClusterState#lockNode}: the shared-state half of the node lock (DESIGN.md §3).
 * <pre>
 *   Acquired(since, replaced)  the pod now holds the lock; replaced = an expired holder it took over, or null
 *   Held(since)                the pod already held it (re-entrant, as HAMi); nothing changed
 *   Contended(holder)          another pod holds it within the timeout: wait for its release
 *   UnknownNode                the node is not registered
 * </pre>
 */
public sealed interface LockOutcome {

    /** Returns true when the caller holds the lock after this call ({@link Acquired} or {@link Held}). */
    default boolean holds() {
        return this instanceof Acquired || this instanceof Held;
    }

    /**
     * The lock was taken now.
     *
     * @param sinceMillis the time the lock records (the caller's {@code now})
     * @param replaced    the expired holder that was taken over, or null when the node was unlocked
     */
    record Acquired(long sinceMillis, NodeLockHolder replaced) implements LockOutcome {
    }

    /**
     * The pod already held the lock.
     *
     * @param sinceMillis when it took it
     */
    record Held(long sinceMillis) implements LockOutcome {
    }

    /**
     * Another pod holds the lock and it has not expired.
     *
     * @param holder the current holder
     */
    record Contended(NodeLockHolder holder) implements LockOutcome {
    }

    /** The node has no registered inventory. */
    record UnknownNode() implements LockOutcome {
    }
}
