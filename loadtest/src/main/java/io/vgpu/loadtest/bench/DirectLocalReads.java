package io.vgpu.loadtest.bench;

import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The shared state as a benchmark replica's services see it: every asynchronous call through the hop probe
 * ({@link HopTimes}, a reflective proxy), the local reads ({@link ClusterState#node} and its siblings) straight to the
 * real state, as in the gateway itself. The filter reads one view per listed node (5,000 per request at 5,000
 * nodes): through the proxy each read cost a reflective call, an argument array and two clock reads that a real
 * replica never pays (2026-12-07 profile of the /filter row), and the probe times only stages anyway.
 */
final class DirectLocalReads implements ClusterState {

    private final ClusterState timed;
    private final ClusterState direct;

    /**
     * @param timed  the state behind the hop probe: every call returning a stage goes here
     * @param direct the real state: the local reads go here
     */
    DirectLocalReads(ClusterState timed, ClusterState direct) {
        this.timed = timed;
        this.direct = direct;
    }

    @Override
    public CompletionStage<Boolean> registerNode(NodeInventory inventory) {
        return timed.registerNode(inventory);
    }

    @Override
    public CompletionStage<Boolean> removeNode(String node) {
        return timed.removeNode(node);
    }

    @Override
    public CompletionStage<ReserveOutcome> reserve(String node, PodRef pod, PodAllocation allocation, long nowMillis,
                                                   long deadlineMillis) {
        return timed.reserve(node, pod, allocation, nowMillis, deadlineMillis);
    }

    @Override
    public CompletionStage<ConfirmOutcome> confirm(String node, PodRef pod, PodAllocation fallback, long nowMillis) {
        return timed.confirm(node, pod, fallback, nowMillis);
    }

    @Override
    public CompletionStage<ConfirmLockOutcome> confirmAndLock(String node, PodRef pod, PodAllocation fallback,
                                                              long nowMillis, long lockTimeoutMillis) {
        return timed.confirmAndLock(node, pod, fallback, nowMillis, lockTimeoutMillis);
    }

    @Override
    public CompletionStage<Boolean> observeBound(String node, PodRef pod, PodAllocation allocation) {
        return timed.observeBound(node, pod, allocation);
    }

    @Override
    public CompletionStage<Boolean> release(String node, String podUid) {
        return timed.release(node, podUid);
    }

    @Override
    public CompletionStage<Boolean> releaseReservation(String node, String podUid) {
        return timed.releaseReservation(node, podUid);
    }

    @Override
    public CompletionStage<Optional<String>> podNode(String podUid) {
        return timed.podNode(podUid);
    }

    @Override
    public CompletionStage<Integer> sweepExpired(long nowMillis) {
        return timed.sweepExpired(nowMillis);
    }

    @Override
    public CompletionStage<LockOutcome> lockNode(String node, String podNamespace, String podName, long nowMillis,
                                                 long timeoutMillis) {
        return timed.lockNode(node, podNamespace, podName, nowMillis, timeoutMillis);
    }

    @Override
    public CompletionStage<UnlockOutcome> unlockNode(String node, String podNamespace, String podName) {
        return timed.unlockNode(node, podNamespace, podName);
    }

    @Override
    public CompletionStage<Boolean> setQuotaLimits(String namespace, QuotaLimits limits) {
        return timed.setQuotaLimits(namespace, limits);
    }

    @Override
    public CompletionStage<QuotaOutcome> reserveQuota(String namespace, String podUid, long mem, long cores,
                                                      long nowMillis, long deadlineMillis) {
        return timed.reserveQuota(namespace, podUid, mem, cores, nowMillis, deadlineMillis);
    }

    @Override
    public CompletionStage<Boolean> observeQuota(String namespace, String podUid, long mem, long cores) {
        return timed.observeQuota(namespace, podUid, mem, cores);
    }

    @Override
    public CompletionStage<Boolean> releaseQuota(String namespace, String podUid) {
        return timed.releaseQuota(namespace, podUid);
    }

    @Override
    public Collection<NodeView> nodes() {
        return direct.nodes();
    }

    @Override
    public NodeView node(String name) {
        return direct.node(name);
    }

    @Override
    public long viewMark() {
        return direct.viewMark();
    }

    @Override
    public boolean viewsChangedSince(long mark, Consumer<String> changed) {
        return direct.viewsChangedSince(mark, changed);
    }

    @Override
    public NodeState nodeState(String name) {
        return direct.nodeState(name);
    }

    @Override
    public CompletionStage<Optional<NodeState>> readNode(String name) {
        return timed.readNode(name);
    }

    @Override
    public CompletionStage<Optional<NodeState>> readStoredNode(String name) {
        return timed.readStoredNode(name);
    }

    @Override
    public QuotaState quota(String namespace) {
        return direct.quota(namespace);
    }

    @Override
    public void onResync(Consumer<Predicate<String>> resync) {
        timed.onResync(resync);
    }

    @Override
    public boolean ownsNode(String node) {
        return direct.ownsNode(node);
    }
}
