package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Drops whatever one pod holds on the node ({@link NodeState#release}). Returns true when something was dropped.
 *
 * @param podUid the pod's UID
 */
public record ReleaseSlicesProcessor(String podUid) implements EntryProcessor<String, NodeState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.release(podUid));
    }
}
