package io.vgpu.gateway.core.nodelock;

import io.vgpu.state.codec.NodeLockCodec;

import java.time.Instant;
import java.time.ZoneId;

/**
 * HAMi's {@code SetNodeLock} (spec §11.2) as pure decisions. Protocol the adapter runs:
 *
 * <pre>
 *  GET node ─► precheck ─┬─ Failed / Contended ─────────────► stop
 *                        └─ Proceed
 *                             │   up to LockRetry.HAMI.steps() attempts, waiting delayAfter(n) between
 *                             ▼
 *                  GET node ─► attempt ─┬─ Retry(error) ────────────────► next attempt
 *                                       ├─ Done ───────────────────────► acquired
 *                                       ├─ Contended ──────────────────► stop (not retried)
 *                                       └─ Patch(value) ─► PATCH with resourceVersion ─┬─ ok ──► acquired
 *                                                                                      └─ error ► next attempt
 *  attempts exhausted or stopped in the loop ─► fail with exhausted(node, last cause)
 * </pre>
 *
 * All methods are pure and thread-safe; the clock and zone are passed in.
 */
public final class SetNodeLock {

    private SetNodeLock() {
    }

    /** The check before the attempts: any lock present is contention. */
    public static SetStep precheck(NodeRead read, String node) {
        if (read instanceof NodeRead.Failed failed) {
            return new SetStep.Failed(failed.error());
        }
        return ((NodeRead.Found) read).isLocked() ? new SetStep.Contended(lockedMessage(node)) : new SetStep.Proceed();
    }

    /**
     * One attempt over a fresh read.
     *
     * @param now  the caller's clock; the written time is {@code now} in {@code zone}
     * @param zone the scheduler's local zone (HAMi formats in {@code time.Local})
     */
    public static SetStep attempt(NodeRead read, String node, NamespacedName requester, Instant now, ZoneId zone) {
        if (read instanceof NodeRead.Failed failed) {
            return new SetStep.Retry(failed.error());
        }
        String lock = ((NodeRead.Found) read).lock();
        if (lock != null && lock.contains(NodeLockCodec.SEPARATOR)
                && lock.endsWith(NodeLockCodec.ownerSuffix(requester.namespace(), requester.name()))) {
            return new SetStep.Done();
        }
        if (lock != null) {
            return new SetStep.Contended(lockedMessage(node));
        }
        return new SetStep.Patch(NodeLockCodec.value(now, zone, requester.namespace(), requester.name()));
    }

    /**
     * The final error when the attempts end without the lock:
     * {@code failed to set node lock (node=<n>, retry strategy=<backoff>): <cause>}. It still belongs to the
     * contention class when the cause did.
     */
    public static String exhausted(String node, String cause) {
        return "failed to set node lock (node=" + node + ", retry strategy=" + LockRetry.HAMI.describe() + "): " + cause;
    }

    private static String lockedMessage(String node) {
        return "node " + node + " is locked: " + LockNode.CONTENTION;
    }
}
