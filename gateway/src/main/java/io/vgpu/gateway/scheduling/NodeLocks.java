package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vgpu.gateway.core.nodelock.LockNode;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeLockPort;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.LockOutcome.Contended;
import io.vgpu.state.model.LockOutcome.UnknownNode;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The node lock, all of it (DESIGN.md §3 "Node lock"): the contention decision made atomically in the node's shared
 * state, then HAMi's {@code hami.io/mutex.lock} annotation that the device plugin finds the pod by; the bounded wait
 * of a contended bind; and the release of the shared lock, which happens only when this replica's informers show the
 * annotation gone (or never appear).
 * <pre>
 *   acquire ─► shared lock ── contended ──┬─ holder's annotation seen gone, or absent past the grace ─► unlock it, again
 *      │                                  └─ else every lockRetryEvery until nodeLockWait ──────────► Refused(LOCK_TIMEOUT)
 *      │                    ── unknown node ─────────────────────────────────────────────────────────► Refused(NODE_UNREGISTERED)
 *      ├─ held ─► annotation (KubeNodeLock) ── contended: again until nodeLockWait ─────────────────► Refused(LOCK_TIMEOUT)
 *      │                                    ── failed ───────────────────────────────────────────────► Refused(LOCK_FAILED)
 *      └─ held ─► Held                         anything but Held: the shared lock is released (owner-checked)
 *
 *   observed(node)  every node event: remembers the annotation; on the key's owner, when the annotation that named
 *                   the holder went away, or none appeared within the grace, the shared lock is released
 *   sweep(owned)    the grace rule on a timer, for nodes that see no event
 * </pre>
 * Every release is owner-checked, so releasing a lock the pod does not hold changes nothing, and idempotent. A wait
 * never blocks: its retries are Vert.x timers, and calls to the shared state resume on the caller's context.
 */
public final class NodeLocks {

    /**
     * A lock taken in the shared state is written to the node a moment later; node events seen in between must not
     * release it.
     */
    public static final long GRACE_MILLIS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(NodeLocks.class);

    private static final LockAcquisition DECLINED = new LockAcquisition.Declined();

    private static final LockAcquisition HELD = new LockAcquisition.Held();

    private final Vertx vertx;
    private final ClusterState state;
    private final NodeLockPort annotation;
    private final SchedulingConfig config;
    private final Clock clock;
    private final LockWaits waits;
    /** What this replica's informers show of the lock annotations. */
    private final SeenAnnotations seen = new SeenAnnotations();

    /**
     * @param vertx      for the timers of a wait
     * @param state      the shared state (its half of the lock)
     * @param annotation HAMi's annotation lock
     * @param config     lock timeout, wait bound, retry interval, call timeout
     * @param clock      the time source
     * @param waits      where waits are recorded
     */
    public NodeLocks(Vertx vertx, ClusterState state, NodeLockPort annotation, SchedulingConfig config, Clock clock,
                     LockWaits waits) {
        this.vertx = vertx;
        this.state = state;
        this.annotation = annotation;
        this.config = config;
        this.clock = clock;
        this.waits = waits;
    }

    // ---- the binder's side ----

    /**
     * Takes both locks of {@code node} for {@code pod}, waiting (bounded by {@link SchedulingConfig#nodeLockWait()})
     * while another pod holds them. Anything but {@link LockAcquisition.Held}, a failed future included, leaves the pod
     * holding neither: a lock call that failed may still have applied (its backup did not answer while a member
     * died), so the shared lock is released owner-checked on every other end.
     */
    Future<LockAcquisition> acquire(String node, NamespacedName pod) {
        return acquire(node, pod, now -> Stages.onContext(state.lockNode(node, pod.namespace(), pod.name(), now,
                config.nodeLockTimeout().toMillis())).map(Optional::of));
    }

    /**
     * {@link #acquire(String, NamespacedName)} with the shared half taken by {@code shared}, e.g. {@code /bind}'s
     * confirm-and-lock processor (one hop for both; a contended try changes nothing and is made again, as a plain
     * lock is). A try that decides without the lock ends the wait with {@link LockAcquisition.Declined}: nothing to
     * release, since a contended try took nothing.
     */
    Future<LockAcquisition> acquire(String node, NamespacedName pod, SharedLockTry shared) {
        long deadline = clock.millis() + config.nodeLockWait().toMillis();
        long start = System.nanoTime();
        return waitFor(node, deadline, () -> sharedLock(node, pod, shared))
                .compose(taken -> taken instanceof LockAcquisition.Held
                        ? waitFor(node, deadline, () -> annotationLock(node, pod)) : Future.succeededFuture(taken))
                .compose(taken -> taken instanceof LockAcquisition.Held || taken instanceof LockAcquisition.Declined
                        ? Future.succeededFuture(taken) : unlockShared(node, pod).map(taken))
                .recover(e -> unlockShared(node, pod).compose(x -> Future.failedFuture(e)))
                .andThen(done -> {
                    if (!(done.succeeded() && done.result() instanceof LockAcquisition.Declined)) {
                        waits.record(waitOutcome(done.succeeded() ? done.result() : null), System.nanoTime() - start);
                    }
                });
    }

    /** Releases both locks if {@code pod} holds them (owner-checked, idempotent); never fails. */
    public Future<Void> release(String node, NamespacedName pod) {
        return Stages.onContext(annotation.release(node, pod, false)).otherwiseEmpty()
                .compose(x -> unlockShared(node, pod));
    }

    /**
     * Calls {@code attempt} until it decides; an attempt that finds the lock contended answers null and is made again
     * every {@link SchedulingConfig#lockRetryEvery()} while the deadline allows.
     */
    private Future<LockAcquisition> waitFor(String node, long deadline, Supplier<Future<LockAcquisition>> attempt) {
        return attempt.get().compose(decided -> {
            if (decided != null) {
                return Future.succeededFuture(decided);
            }
            waits.contended();
            if (clock.millis() < deadline) {
                return vertx.timer(config.lockRetryEvery().toMillis(), TimeUnit.MILLISECONDS)
                        .compose(t -> waitFor(node, deadline, attempt));
            }
            // HAMi's text with the configured timeout as Go prints it (5m0s, 15s; not whole minutes only)
            return Future.succeededFuture(new LockAcquisition.Refused(DecisionFailure.LOCK_TIMEOUT,
                    LockNode.contentionMessage(node, config.nodeLockTimeout())));
        });
    }

    /** The contention decision, made atomically in the node's shared state (no API round trip); null: contended. */
    private Future<LockAcquisition> sharedLock(String node, NamespacedName pod, SharedLockTry shared) {
        return shared.attempt(clock.millis())
                .timeout(config.callTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .compose(answer -> {
                    if (answer.isEmpty()) {
                        return Future.succeededFuture(DECLINED);
                    }
                    io.vgpu.state.model.LockOutcome outcome = answer.get();
                    if (outcome.holds()) {
                        return Future.succeededFuture(HELD);
                    }
                    if (outcome instanceof Contended c && abandoned(node, c.holder())) {
                        // its binder died between the shared lock and the annotation (nobody will release it), or
                        // its annotation is gone already and the key's owner has not seen it yet
                        return Stages.onContext(state.unlockNode(node, c.holder().namespace(), c.holder().name()))
                                .compose(u -> sharedLock(node, pod, shared));
                    }
                    return Future.succeededFuture(outcome instanceof UnknownNode
                            ? new LockAcquisition.Refused(DecisionFailure.NODE_UNREGISTERED,
                            "node " + node + " is not registered") : null);
                });
    }

    /** HAMi's {@code hami.io/mutex.lock}, which the device plugin reads to find the pod it allocates; null: contended. */
    private Future<LockAcquisition> annotationLock(String node, NamespacedName pod) {
        return Stages.onContext(annotation.lock(node, pod, config.nodeLockTimeout())).map(outcome -> {
            if (outcome instanceof LockOutcome.Acquired) {
                return HELD;
            }
            return outcome instanceof LockOutcome.Contended ? null
                    : new LockAcquisition.Refused(DecisionFailure.LOCK_FAILED, outcome.message());
        });
    }

    private Future<Void> unlockShared(String node, NamespacedName pod) {
        return Stages.onContext(state.unlockNode(node, pod.namespace(), pod.name())).otherwiseEmpty().mapEmpty();
    }

    private static String waitOutcome(LockAcquisition end) {
        if (end instanceof LockAcquisition.Held) {
            return "acquired";
        }
        return end instanceof LockAcquisition.Refused r && r.cause() == DecisionFailure.LOCK_TIMEOUT ? "timeout" : "failed";
    }

    /** The holder's annotation was seen gone, or never appeared within the grace: nobody will release its lock. */
    private boolean abandoned(String node, NodeLockHolder holder) {
        return unannotatedPastGrace(node, holder, clock.millis()) || seen.sawReleased(node, holder);
    }

    // ---- what the informers show ----

    /**
     * Follows one node event (every node, owned or not). On the node key's owner ({@code owned}), releases the shared
     * lock when the node shows the annotation gone (DESIGN.md §3): the annotation that disappeared must name the
     * holder, since an observation that lags (a slow watch) may show an earlier holder's annotation going away while
     * a later holder's is not visible yet; or, when no annotation was seen at all, once the lock is older than the
     * grace.
     */
    public void observed(NodeObservation node, boolean owned) {
        String seenBefore = seen.track(node);
        if (!owned || node.lock() != null) {
            return;
        }
        Decoded<NodeLock> owner = seenBefore == null ? null : NodeLockCodec.parse(seenBefore);
        if (owner != null && owner.isOk() && !owner.value().legacy()) {
            // the owner comes from the annotation that went away, not from the local snapshot: the snapshot's
            // listener event can trail the lock processor's answer, and a device plugin that allocates within a
            // millisecond removes the annotation before the snapshot shows the lock (the processor is
            // owner-checked, so a lock taken meanwhile by another pod is left alone)
            logFailure("unlock node " + node.name(), state.unlockNode(node.name(), owner.value().namespace(),
                    owner.value().name()));
            return;
        }
        NodeState current = state.nodeState(node.name());
        NodeLockHolder holder = current == null ? null : current.lock();
        if (holder == null) {
            return;
        }
        // released: the holder's annotation was there and is gone now, or no annotation appeared within the grace
        boolean released = seenBefore != null ? SeenAnnotations.names(seenBefore, holder)
                : clock.millis() - holder.sinceMillis() > GRACE_MILLIS;
        if (released) {
            logFailure("unlock node " + node.name(), state.unlockNode(node.name(), holder.namespace(), holder.name()));
        }
    }

    /** The node is gone: forgets what was seen of its annotation. */
    public void forget(String node) {
        seen.forget(node);
    }

    /**
     * The grace rule of {@link #observed} on a timer, for nodes that see no event: releases the shared lock of every
     * node this replica owns whose lock annotation has not appeared (as this replica's informers show the node)
     * within the grace. Such a lock is left by a lock call that failed after it applied (its backup did not answer
     * while a member died), by an unlock that failed, or by a binder that died between the two locks; left alone it
     * would hold the node until a contending bind takes it over. Releasing it is safe even when the annotation is
     * only late: {@code hami.io/mutex.lock}, written with resourceVersion guards, is the lock the device plugin relies
     * on, and the next binder finds it there. Call it periodically, once the informers have listed (the owner only
     * acts on its keys). Returns at once.
     *
     * @param owned the nodes this replica owns
     */
    public void sweep(Predicate<String> owned) {
        long now = clock.millis();
        for (NodeView view : state.nodes()) {
            String node = view.name();
            NodeState current = state.nodeState(node);
            NodeLockHolder holder = current == null ? null : current.lock();
            if (holder != null && owned.test(node) && unannotatedPastGrace(node, holder, now)) {
                LOG.info("node {}: shared lock of {}/{} has no annotation after {} ms, released", node,
                        holder.namespace(), holder.name(), now - holder.sinceMillis());
                logFailure("unlock node " + node, state.unlockNode(node, holder.namespace(), holder.name()));
            }
        }
    }

    /** Older than the grace, and the node is seen without an annotation: nobody will write it or release the lock. */
    private boolean unannotatedPastGrace(String node, NodeLockHolder holder, long nowMillis) {
        return nowMillis - holder.sinceMillis() > GRACE_MILLIS && seen.showsNoLock(node);
    }

    private static void logFailure(String what, CompletionStage<?> stage) {
        stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("node lock: {} failed: {}", what, e.toString());
            }
        });
    }
}
