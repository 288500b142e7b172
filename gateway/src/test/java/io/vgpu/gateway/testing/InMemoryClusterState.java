package io.vgpu.gateway.testing;

import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.Transition;
import io.vgpu.state.model.UnlockOutcome;
import io.vgpu.state.model.ViewChanges;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@link ClusterState} kept in one process, for {@code simulate} and tests: the same contract as the
 * Hazelcast store, because it applies the same pure transitions of {@link NodeState} and {@link QuotaState},
 * atomically per key ({@link ConcurrentHashMap#compute}). Every stage is already completed when returned;
 * local reads see every change at once; this process owns every node.
 */
public final class InMemoryClusterState implements ClusterState {

    private final Map<String, NodeState> nodes = new ConcurrentHashMap<>();
    private final Map<String, NodeView> views = new ConcurrentHashMap<>();
    private final ViewChanges viewChanges = new ViewChanges();
    private final Map<String, QuotaState> quotas = new ConcurrentHashMap<>();
    private final Map<String, String> podIndex = new ConcurrentHashMap<>();

    @Override
    public CompletionStage<Boolean> registerNode(NodeInventory inventory) {
        return done(onNode(inventory.name(), s -> s.register(inventory)));
    }

    @Override
    public CompletionStage<Boolean> removeNode(String node) {
        boolean[] known = new boolean[1];
        nodes.computeIfPresent(node, (name, state) -> {
            known[0] = true;
            views.remove(name);
            viewChanges.changed(name);
            state.charges().keySet().forEach(uid -> podIndex.remove(uid, name));
            return null;
        });
        return done(known[0]);
    }

    @Override
    public CompletionStage<ReserveOutcome> reserve(String node, PodRef pod, PodAllocation allocation, long nowMillis,
                                                   long deadlineMillis) {
        ReserveOutcome outcome = onNode(node, s -> s.reserve(pod, allocation, nowMillis, deadlineMillis));
        if (outcome.isReserved()) {
            move(pod.uid(), node);
        }
        return done(outcome);
    }

    @Override
    public CompletionStage<ConfirmOutcome> confirm(String node, PodRef pod, PodAllocation fallback, long nowMillis) {
        ConfirmOutcome outcome = onNode(node, s -> s.confirm(pod, fallback, nowMillis));
        if (outcome instanceof ConfirmOutcome.Confirmed c && c.via() == ConfirmOutcome.Via.RE_RESERVED) {
            move(pod.uid(), node);
        } else if (outcome.isConfirmed()) {
            podIndex.put(pod.uid(), node);
        }
        return done(outcome);
    }

    @Override
    public CompletionStage<ConfirmLockOutcome> confirmAndLock(String node, PodRef pod, PodAllocation fallback,
                                                              long nowMillis, long lockTimeoutMillis) {
        ConfirmLockOutcome outcome = onNode(node, s -> s.confirmAndLock(pod, fallback, nowMillis, lockTimeoutMillis));
        if (outcome.applied() && outcome.confirm() instanceof ConfirmOutcome.Confirmed c
                && c.via() == ConfirmOutcome.Via.RE_RESERVED) {
            move(pod.uid(), node);
        } else if (outcome.applied()) {
            podIndex.put(pod.uid(), node);
        }
        return done(outcome);
    }

    /** As the store does: a decision on {@code node} releases the pod's entry where the index pointed before. */
    private void move(String podUid, String node) {
        String previous = podIndex.put(podUid, node);
        if (previous != null && !previous.equals(node)) {
            onNode(previous, s -> s.release(podUid));
        }
    }

    @Override
    public CompletionStage<Boolean> observeBound(String node, PodRef pod, PodAllocation allocation) {
        boolean changed = onNode(node, s -> s.observeBound(pod, allocation));
        podIndex.put(pod.uid(), node);
        return done(changed);
    }

    @Override
    public CompletionStage<Boolean> release(String node, String podUid) {
        boolean released = onNode(node, s -> s.release(podUid));
        podIndex.remove(podUid, node);
        return done(released);
    }

    @Override
    public CompletionStage<Boolean> releaseReservation(String node, String podUid) {
        boolean released = onNode(node, s -> s.releaseReservation(podUid));
        if (released) {
            podIndex.remove(podUid, node);
        }
        return done(released);
    }

    @Override
    public CompletionStage<Optional<String>> podNode(String podUid) {
        return done(Optional.ofNullable(podIndex.get(podUid)));
    }

    @Override
    public CompletionStage<Integer> sweepExpired(long nowMillis) {
        int dropped = 0;
        for (String node : List.copyOf(nodes.keySet())) {
            List<String> expired = onNode(node, s -> s.expire(nowMillis));
            expired.forEach(uid -> podIndex.remove(uid, node));
            dropped += expired.size();
        }
        for (String namespace : List.copyOf(quotas.keySet())) {
            dropped += onQuota(namespace, q -> q.expire(nowMillis)).size();
        }
        return done(dropped);
    }

    @Override
    public CompletionStage<LockOutcome> lockNode(String node, String podNamespace, String podName, long nowMillis,
                                                 long timeoutMillis) {
        return done(onNode(node, s -> s.lockNode(podNamespace, podName, nowMillis, timeoutMillis)));
    }

    @Override
    public CompletionStage<UnlockOutcome> unlockNode(String node, String podNamespace, String podName) {
        return done(onNode(node, s -> s.unlockNode(podNamespace, podName)));
    }

    @Override
    public CompletionStage<Boolean> setQuotaLimits(String namespace, QuotaLimits limits) {
        return done(onQuota(namespace, q -> q.withLimits(limits)));
    }

    @Override
    public CompletionStage<QuotaOutcome> reserveQuota(String namespace, String podUid, long mem, long cores,
                                                      long nowMillis, long deadlineMillis) {
        return done(onQuota(namespace, q -> q.reserve(podUid, mem, cores, nowMillis, deadlineMillis)));
    }

    @Override
    public CompletionStage<Boolean> observeQuota(String namespace, String podUid, long mem, long cores) {
        return done(onQuota(namespace, q -> q.observe(podUid, mem, cores)));
    }

    @Override
    public CompletionStage<Boolean> releaseQuota(String namespace, String podUid) {
        return done(onQuota(namespace, q -> q.release(podUid)));
    }

    @Override
    public Collection<NodeView> nodes() {
        return Collections.unmodifiableCollection(views.values());
    }

    @Override
    public NodeView node(String name) {
        return views.get(name);
    }

    @Override
    public long viewMark() {
        return viewChanges.mark();
    }

    @Override
    public boolean viewsChangedSince(long mark, Consumer<String> changed) {
        return viewChanges.changedSince(mark, changed);
    }

    @Override
    public NodeState nodeState(String name) {
        return nodes.get(name);
    }

    @Override
    public CompletionStage<Optional<NodeState>> readNode(String name) {
        return CompletableFuture.completedFuture(Optional.ofNullable(nodes.get(name)));
    }

    @Override
    public QuotaState quota(String namespace) {
        QuotaState q = quotas.get(namespace);
        return q == null ? QuotaState.absent(namespace) : q;
    }

    @Override
    public boolean ownsNode(String node) {
        return true;
    }

    /** Never called: one process owns every key and nothing is ever lost or moved. */
    @Override
    public void onResync(Consumer<Predicate<String>> resync) {
        // nothing moves between replicas here
    }

    /** Pods charged on {@code node} (reserved or bound) and their allocations, in UID order. */
    public Map<String, PodAllocation> podsOn(String node) {
        NodeState state = nodes.get(node);
        Map<String, PodAllocation> out = new LinkedHashMap<>();
        if (state != null) {
            state.charges().forEach((uid, charge) -> out.put(uid, charge.allocation()));
        }
        return out;
    }

    /** Whether pod {@code podUid} is bound (not merely reserved) on {@code node}. */
    public boolean isBound(String node, String podUid) {
        NodeState state = nodes.get(node);
        return state != null && state.charge(podUid) instanceof PodCharge.Bound;
    }

    /** Applies one transition to one node atomically; the view follows in the same step. */
    private <O> O onNode(String node, Function<NodeState, Transition<NodeState, O>> change) {
        Object[] outcome = new Object[1];
        nodes.compute(node, (name, current) -> {
            NodeState before = current == null ? NodeState.absent(name) : current;
            Transition<NodeState, O> t = change.apply(before);
            outcome[0] = t.outcome();
            if (!t.changed()) {
                return current;
            }
            NodeState next = t.next().isVacant() ? null : t.next();
            if (next != null && next.registered()) {
                views.put(name, next.view());
            } else {
                views.remove(name);
            }
            viewChanges.changed(name);
            return next;
        });
        @SuppressWarnings("unchecked")
        O result = (O) outcome[0];
        return result;
    }

    private <O> O onQuota(String namespace, Function<QuotaState, Transition<QuotaState, O>> change) {
        Object[] outcome = new Object[1];
        quotas.compute(namespace, (ns, current) -> {
            Transition<QuotaState, O> t = change.apply(current == null ? QuotaState.absent(ns) : current);
            outcome[0] = t.outcome();
            if (!t.changed()) {
                return current;
            }
            return t.next().isVacant() ? null : t.next();
        });
        @SuppressWarnings("unchecked")
        O result = (O) outcome[0];
        return result;
    }

    private static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
