package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.StringPool;

import java.util.Map;

/**
 * {@code /filter}'s compare-and-reserve on one node key ({@link NodeState#reserve}): the allocation chosen on a
 * possibly stale view is re-checked with the model's capacity rule against the authoritative value.
 *
 * @param pod            the pod
 * @param allocation     its devices on this node
 * @param nowMillis      the caller's clock
 * @param deadlineMillis when the reservation expires unless confirmed
 */
public record ReserveSlicesProcessor(PodRef pod, PodAllocation allocation, long nowMillis, long deadlineMillis)
        implements EntryProcessor<String, NodeState, ReserveOutcome> {

    /** Pools the namespace and the allocation's UUIDs and vendor words (equal values; issue 6's heap). */
    public ReserveSlicesProcessor {
        pod = StringPool.canonical(pod);
        allocation = StringPool.canonical(allocation);
    }

    @Override
    public ReserveOutcome process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.reserve(pod, allocation, nowMillis, deadlineMillis));
    }
}
