package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.StringPool;

import java.util.Map;

/**
 * Informer ingest of a bound pod ({@link NodeState#observeBound}); creates the key when the node is not
 * registered yet. Returns true when the value changed.
 *
 * @param pod        the pod
 * @param allocation its devices, from its annotations
 */
public record ObserveBoundProcessor(PodRef pod, PodAllocation allocation)
        implements EntryProcessor<String, NodeState, Boolean> {

    /** Pools the namespace and the allocation's UUIDs and vendor words (equal values; issue 6's heap). */
    public ObserveBoundProcessor {
        pod = StringPool.canonical(pod);
        allocation = StringPool.canonical(allocation);
    }

    @Override
    public Boolean process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.observeBound(pod, allocation));
    }
}
