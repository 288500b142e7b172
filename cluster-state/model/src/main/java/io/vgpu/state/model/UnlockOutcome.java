package io.vgpu.state.model;

/**
 * The answer to {@link ClusterState#unlockNode}, which is owner-checked like HAMi's release.
 * <pre>
 *   Unlocked           the pod held the lock; it is free now
 *   NotHolder(holder)  another pod holds it; left alone
 *   NotLocked          nobody held it (also: a repeated unlock)
 * </pre>
 */
public sealed interface UnlockOutcome {

    /** The lock was released. */
    record Unlocked() implements UnlockOutcome {
    }

    /**
     * Another pod holds the lock; nothing changed.
     *
     * @param holder the current holder
     */
    record NotHolder(NodeLockHolder holder) implements UnlockOutcome {
    }

    /** The node was not locked. */
    record NotLocked() implements UnlockOutcome {
    }
}
