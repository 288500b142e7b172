package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Removes a node's entry (the Node object was deleted). Returns the UIDs that were charged on it, so that the
 * pod index can forget them, or null when the key was absent. Idempotent.
 */
public record RemoveNodeProcessor() implements EntryProcessor<String, NodeState, String[]> {

    @Override
    public String[] process(Map.Entry<String, NodeState> entry) {
        NodeState current = entry.getValue();
        if (current == null) {
            return null;
        }
        entry.setValue(null);
        return current.charges().keySet().toArray(new String[0]);
    }
}
