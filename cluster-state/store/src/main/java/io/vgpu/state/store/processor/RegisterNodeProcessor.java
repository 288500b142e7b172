package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Registers (or replaces) a node's inventory, keeping its charges and lock ({@link NodeState#register}).
 * Returns true when the value changed; an equal inventory writes nothing.
 *
 * @param inventory the node's inventory (its name is the key)
 */
public record RegisterNodeProcessor(NodeInventory inventory) implements EntryProcessor<String, NodeState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.register(inventory));
    }
}
