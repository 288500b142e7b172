package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.StringPool;

import java.util.Map;

/**
 * Registers (or replaces) a node's inventory, keeping its charges and lock ({@link NodeState#register}).
 * Returns true when the value changed; an equal inventory writes nothing.
 *
 * @param inventory the node's inventory (its name is the key)
 */
public record RegisterNodeProcessor(NodeInventory inventory) implements EntryProcessor<String, NodeState, Boolean> {

    /** Pools the node name, UUIDs, model names and modes (equal values; issue 6's heap). */
    public RegisterNodeProcessor {
        inventory = StringPool.canonical(inventory);
    }

    @Override
    public Boolean process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.register(inventory));
    }
}
