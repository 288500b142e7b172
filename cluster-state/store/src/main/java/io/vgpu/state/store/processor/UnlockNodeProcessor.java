package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.UnlockOutcome;

import java.util.Map;

/**
 * Releases the node lock if the named pod holds it ({@link NodeState#unlockNode}; owner-checked, idempotent).
 *
 * @param podNamespace the holder's namespace
 * @param podName      the holder's name
 */
public record UnlockNodeProcessor(String podNamespace, String podName)
        implements EntryProcessor<String, NodeState, UnlockOutcome> {

    @Override
    public UnlockOutcome process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.unlockNode(podNamespace, podName));
    }
}
