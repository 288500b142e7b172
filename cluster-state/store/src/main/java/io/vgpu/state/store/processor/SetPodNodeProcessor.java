package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * Points the pod index entry ({@code podUid → nodeName}) at {@code node}. Returns the node it pointed at before,
 * or null. Idempotent.
 *
 * @param node the node the pod's charge is on now
 */
public record SetPodNodeProcessor(String node) implements EntryProcessor<String, String, String> {

    @Override
    public String process(Map.Entry<String, String> entry) {
        String previous = entry.getValue();
        if (!node.equals(previous)) {
            entry.setValue(node);
        }
        return previous;
    }
}
