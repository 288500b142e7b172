package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * Removes the pod index entry only if it still points at {@code node} (a pod that moved meanwhile keeps its new
 * entry). Returns true when removed. Idempotent.
 *
 * @param node the node whose charge of the pod was dropped
 */
public record ClearPodNodeProcessor(String node) implements EntryProcessor<String, String, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, String> entry) {
        if (!node.equals(entry.getValue())) {
            return false;
        }
        entry.setValue(null);
        return true;
    }
}
