package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Drops the node's reservations whose deadline is at or before {@code nowMillis} ({@link NodeState#expire}).
 * Returns the UIDs dropped (empty when none).
 *
 * @param nowMillis the sweeping replica's clock
 */
public record ExpireProcessor(long nowMillis) implements EntryProcessor<String, NodeState, String[]> {

    @Override
    public String[] process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.expire(nowMillis)).toArray(new String[0]);
    }
}
