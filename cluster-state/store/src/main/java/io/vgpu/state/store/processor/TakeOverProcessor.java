package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeVersions;

import java.util.Map;

/**
 * A new owner's jump of a node value's version past every version an earlier owner may have published
 * ({@link NodeVersions#takeOver}): the same value, its {@link NodeState#version() version} moved to the first of the
 * epoch after {@code past}'s, so that its summary and every later change's supersede whatever copies a lost owner
 * left in the summary map and the views. Not a model transition (nothing the node holds changes), so it does not go
 * through {@link StateEntries}. Returns the value as the key holds it afterwards, or null when the key is absent
 * (nothing is created). Idempotent: once the value's epoch is past {@code past}'s it changes nothing and writes
 * nothing. Deterministic from the entry and {@code past}, so a backup that runs it again reaches the same version.
 *
 * @param past the highest version of the key the new owner knows of (its value's as read, its view's, the summary
 *             map's)
 */
public record TakeOverProcessor(long past) implements EntryProcessor<String, NodeState, NodeState> {

    @Override
    public NodeState process(Map.Entry<String, NodeState> entry) {
        NodeState current = entry.getValue();
        if (current == null) {
            return null;
        }
        long next = NodeVersions.takeOver(current.version(), past);
        if (next == current.version()) {
            return current;
        }
        NodeState jumped = current.withVersion(next);
        entry.setValue(jumped);
        return jumped;
    }
}
