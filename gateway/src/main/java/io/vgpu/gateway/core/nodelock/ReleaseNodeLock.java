package io.vgpu.gateway.core.nodelock;

import io.vgpu.state.codec.NodeLockCodec;

/**
 * HAMi's {@code ReleaseNodeLock(node, pod, skipOwnerCheck)} (spec §11.2) as pure decisions. Protocol the
 * adapter runs (under its per-node mutex):
 *
 * <pre>
 *  GET node ─► firstLook ─┬─ Failed ──────────────────────────────────────────► release fails
 *                         ├─ Leave(NOT_LOCKED | NOT_OWNER) ───────────────────► released (nothing removed)
 *                         └─ Remove(expected)
 *                              │   up to LockRetry.HAMI.steps() attempts
 *                              ▼
 *                   GET node ─► recheck ─┬─ Retry(error) ─────────────────────► next attempt
 *                                        ├─ Leave(NOT_LOCKED | CHANGED) ──────► released (left as is)
 *                                        └─ Patch ─► PATCH null with resourceVersion ─┬─ ok ──► released
 *                                                                                     └─ error ► next attempt
 *  attempts exhausted ─► fail with exhausted(node, last cause)
 * </pre>
 *
 * <p>Owner rules: with the owner check on, a lock naming another pod is never removed; a legacy
 * (owner-less) lock is removed by any releaser; a re-stamped lock of the same pod is removed. With the
 * owner check off (expired or dangling take-over) only the exact value first seen is removed. Pure and
 * thread-safe.
 */
public final class ReleaseNodeLock {

    private ReleaseNodeLock() {
    }

    /** The first read, before the attempts. */
    public static ReleaseStep firstLook(NodeRead read, NamespacedName releaser, boolean skipOwnerCheck) {
        if (read instanceof NodeRead.Failed failed) {
            return new ReleaseStep.Failed(failed.error());
        }
        String lock = ((NodeRead.Found) read).lock();
        if (lock == null) {
            return new ReleaseStep.Leave(ReleaseStep.LeaveReason.NOT_LOCKED);
        }
        if (!skipOwnerCheck && namesOwner(lock) && !ownedBy(lock, releaser)) {
            return new ReleaseStep.Leave(ReleaseStep.LeaveReason.NOT_OWNER);
        }
        return new ReleaseStep.Remove(lock);
    }

    /**
     * One removal attempt over a fresh read.
     *
     * @param expectedLock the value {@link #firstLook} saw
     */
    public static ReleaseStep recheck(NodeRead read, String expectedLock, NamespacedName releaser, boolean skipOwnerCheck) {
        if (read instanceof NodeRead.Failed failed) {
            return new ReleaseStep.Retry(failed.error());
        }
        String current = ((NodeRead.Found) read).lock();
        if (current == null) {
            return new ReleaseStep.Leave(ReleaseStep.LeaveReason.NOT_LOCKED);
        }
        if (skipOwnerCheck || !namesOwner(current)) {
            if (!current.equals(expectedLock)) {
                return new ReleaseStep.Leave(ReleaseStep.LeaveReason.CHANGED);
            }
        } else if (!ownedBy(current, releaser)) {
            return new ReleaseStep.Leave(ReleaseStep.LeaveReason.CHANGED);
        }
        return new ReleaseStep.Patch();
    }

    /** {@code failed to release node lock (node=<n>, retry strategy=<backoff>): <cause>}. */
    public static String exhausted(String node, String cause) {
        return "failed to release node lock (node=" + node + ", retry strategy=" + LockRetry.HAMI.describe() + "): " + cause;
    }

    private static boolean namesOwner(String lock) {
        return lock.contains(NodeLockCodec.SEPARATOR);
    }

    private static boolean ownedBy(String lock, NamespacedName pod) {
        return lock.endsWith(NodeLockCodec.ownerSuffix(pod.namespace(), pod.name()));
    }
}
