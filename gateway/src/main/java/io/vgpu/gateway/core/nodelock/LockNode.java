package io.vgpu.gateway.core.nodelock;

import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.GoDuration;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;

import java.time.Duration;
import java.time.Instant;

/**
 * HAMi's {@code LockNode} (spec §11.2) as pure decisions over what the adapter observed. The adapter
 * owns the I/O (live {@code GET node}, {@code GET pod}, guarded merge patches) and the in-process
 * per-node mutex; this class decides. All methods are pure, thread-safe and read no clock.
 *
 * <pre>
 *  GET node ──failed──────────────────────────────────────────────────────► Failed
 *     │
 *     ├─ no lock ─────────────────────────────────────────► Acquire(FREE) ──► SetNodeLock
 *     ├─ unparsable ──────────────────────────────────────────────────────► Failed
 *     ├─ older than timeout ──────────────────────► Acquire(EXPIRED, stale) ─┐
 *     ├─ names the requester ─────────────────────────────────────────────► AlreadyHeld
 *     ├─ names another pod ──► LookUpOwner ── GET pod ─┬─ 404 ──► Acquire(DANGLING, stale) ─┤
 *     │                                                ├─ found ─► Contended              │
 *     │                                                └─ error ─► Failed                 │
 *     └─ legacy (no owner), fresh ────────────────────────────────────────► Contended      │
 *                                                                                          ▼
 *                            ReleaseNodeLock(stale, skipOwnerCheck) ──ok──► SetNodeLock ──► acquired
 * </pre>
 *
 * <p>Contention ({@link LockStep.Contended}) is the retryable class: PodGroup members retry the whole
 * sequence every 100 ms up to {@code --node-lock-retry-timeout}; everything else fails at once.
 */
public final class LockNode {

    /** The sentinel text that marks the retryable class. */
    static final String CONTENTION = "node lock contention";

    private LockNode() {
    }

    /**
     * Decides what to do with the node as read.
     *
     * @param read      the live read of the node
     * @param node      node name, for messages
     * @param requester the pod asking for the lock
     * @param timeout   lock expiry ({@code --node-lock-timeout}, 5m by default)
     * @param now       the caller's clock
     */
    public static LockStep decide(NodeRead read, String node, NamespacedName requester, Duration timeout, Instant now) {
        if (read instanceof NodeRead.Failed failed) {
            return new LockStep.Failed(failed.error());
        }
        String value = ((NodeRead.Found) read).lock();
        if (value == null) {
            return new LockStep.Acquire(null, LockStep.TakeOverReason.FREE);
        }
        Decoded<NodeLock> parsed = NodeLockCodec.parse(value);
        if (!parsed.isOk()) {
            return new LockStep.Failed(parsed.error());
        }
        NodeLock lock = parsed.value();
        if (Duration.between(lock.time(), now).compareTo(timeout) > 0) {
            return new LockStep.Acquire(value, LockStep.TakeOverReason.EXPIRED);
        }
        if (lock.ownedBy(requester.namespace(), requester.name())) {
            return new LockStep.AlreadyHeld();
        }
        String contention = contentionMessage(node, timeout);
        if (lock.namesOwner()) {
            return new LockStep.LookUpOwner(new NamespacedName(lock.namespace(), lock.name()), value, contention);
        }
        return new LockStep.Contended(contention);
    }

    /** {@code node <n> has been locked within <Go duration>: node lock contention}. */
    public static String contentionMessage(String node, Duration timeout) {
        return "node " + node + " has been locked within " + GoDuration.format(timeout) + ": " + CONTENTION;
    }
}
