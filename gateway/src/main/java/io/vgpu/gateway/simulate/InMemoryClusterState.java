package io.vgpu.gateway.simulate;

import io.vgpu.state.model.AllocationCheck;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.UsageAccounting;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ClusterState} kept in one process, for {@code simulate} and tests: the same contract as the
 * Hazelcast store (atomic per node, capacity re-checked with {@link AllocationCheck} on reserve), with
 * each node's view recomputed after every change. Expiry is not modelled: the simulation confirms
 * every reservation at once.
 */
public final class InMemoryClusterState implements ClusterState {

    private final Map<String, NodeRecord> nodes = new ConcurrentHashMap<>();

    @Override
    public CompletionStage<Void> registerNode(NodeView registration) {
        nodes.compute(registration.name(), (name, old) -> {
            NodeRecord rec = new NodeRecord(registration, old == null ? new LinkedHashMap<>() : old.pods);
            rec.recompute();
            return rec;
        });
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Boolean> reserve(String node, String podUid, PodAllocation allocation, long nowMillis,
                                            long deadlineMillis) {
        NodeRecord rec = nodes.get(node);
        if (rec == null) {
            return CompletableFuture.completedFuture(false);
        }
        synchronized (rec) {
            PodAllocation previous = rec.pods.remove(podUid);
            rec.recompute();
            if (!AllocationCheck.admits(rec.view.devices(), allocation)) {
                if (previous != null) {
                    rec.pods.put(podUid, previous);
                    rec.recompute();
                }
                return CompletableFuture.completedFuture(false);
            }
            rec.pods.put(podUid, allocation);
            rec.recompute();
            return CompletableFuture.completedFuture(true);
        }
    }

    @Override
    public CompletionStage<Void> release(String node, String podUid) {
        NodeRecord rec = nodes.get(node);
        if (rec != null) {
            synchronized (rec) {
                if (rec.pods.remove(podUid) != null) {
                    rec.recompute();
                }
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Collection<NodeView> nodes() {
        List<NodeView> out = new ArrayList<>(nodes.size());
        nodes.values().forEach(r -> out.add(r.view));
        return out;
    }

    @Override
    public NodeView node(String name) {
        NodeRecord rec = nodes.get(name);
        return rec == null ? null : rec.view;
    }

    /** Pods placed on {@code node} and their allocations (a copy). */
    public Map<String, PodAllocation> podsOn(String node) {
        NodeRecord rec = nodes.get(node);
        if (rec == null) {
            return Map.of();
        }
        synchronized (rec) {
            return Map.copyOf(rec.pods);
        }
    }

    private static final class NodeRecord {
        final NodeView registration;
        final Map<String, PodAllocation> pods;
        volatile NodeView view;

        NodeRecord(NodeView registration, Map<String, PodAllocation> pods) {
            this.registration = registration;
            this.pods = pods;
        }

        void recompute() {
            List<DeviceUsage> usage = registration.devices();
            for (PodAllocation a : pods.values()) {
                usage = AllocationCheck.plusGrants(usage, UsageAccounting.collapse(a.containers(), a.initCount()));
            }
            view = new NodeView(registration.name(), usage, registration.annotations(), registration.pairScores());
        }
    }
}
