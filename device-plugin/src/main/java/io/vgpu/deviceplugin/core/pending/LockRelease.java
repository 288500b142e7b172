package io.vgpu.deviceplugin.core.pending;

import io.vgpu.state.codec.NodeLockCodec;

/**
 * The plugin's owner-checked release of {@code hami.io/mutex.lock} (HAMi
 * {@code ReleaseNodeLock(ownerCheck=true)}, spec §4.2), as a pure decision over one read of the lock.
 * A lock naming another pod is never removed; a legacy (owner-less) lock is removed; a lock of the
 * same pod is removed whatever its time stamp (a re-stamped lock of the same pod included).
 */
public final class LockRelease {

    private LockRelease() {
    }

    /** What to do with the lock as read. */
    public enum Decision {
        /** Remove it (merge patch guarded by the read's resourceVersion). */
        REMOVE,
        /** There is no lock: nothing to do (not an error). */
        NOT_LOCKED,
        /** The lock belongs to another pod: leave it (not an error). */
        NOT_OWNER
    }

    /**
     * The plugin's decision (owner check on).
     *
     * @param lockValue the annotation value, null when absent
     * @param releaser  the pod whose allocation finished
     */
    public static Decision decide(String lockValue, PodRef releaser) {
        return decide(lockValue, releaser, false);
    }

    /**
     * HAMi's {@code ReleaseNodeLock} decision. The plugin always checks the owner; {@code skipOwnerCheck}
     * (any lock is removed) is the scheduler's forced release of an expired or dangling lock.
     */
    public static Decision decide(String lockValue, PodRef releaser, boolean skipOwnerCheck) {
        if (lockValue == null) {
            return Decision.NOT_LOCKED;
        }
        boolean namesOwner = lockValue.contains(NodeLockCodec.SEPARATOR);
        if (!skipOwnerCheck && namesOwner && !lockValue.endsWith(NodeLockCodec.ownerSuffix(releaser.namespace(), releaser.name()))) {
            return Decision.NOT_OWNER;
        }
        return Decision.REMOVE;
    }
}
