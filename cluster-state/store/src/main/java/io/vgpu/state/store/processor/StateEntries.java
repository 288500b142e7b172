package io.vgpu.state.store.processor;

import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.Transition;

import java.util.Map;
import java.util.function.Function;

/**
 * The one way processors apply a model transition to a map entry: a missing key is the model's "absent" value;
 * the entry is written only when the transition changed the value (so an idempotent retry replicates nothing
 * and fires no listener), with a NEW immutable value one {@link NodeState#version() version} later, or removed when
 * the value became vacant (a key created again starts at version 1: its summary was removed with it; one created
 * again after its partition was lost, whose old summary the views still hold, is then made to jump past it by its
 * owner, {@link TakeOverProcessor}). Hazelcast runs
 * the same processor again on every backup against the same value, which yields the same result because
 * transitions are pure.
 */
final class StateEntries {

    private StateEntries() {
    }

    static <O> O applyToNode(Map.Entry<String, NodeState> entry,
                             Function<NodeState, Transition<NodeState, O>> change) {
        NodeState current = entry.getValue();
        NodeState before = current == null ? NodeState.absent(entry.getKey()) : current;
        Transition<NodeState, O> t = change.apply(before);
        if (t.changed()) {
            entry.setValue(t.next().isVacant() ? null : t.next().withVersion(before.version() + 1));
        }
        return t.outcome();
    }

    static <O> O applyToQuota(Map.Entry<String, QuotaState> entry,
                              Function<QuotaState, Transition<QuotaState, O>> change) {
        QuotaState current = entry.getValue();
        Transition<QuotaState, O> t = change.apply(current == null ? QuotaState.absent(entry.getKey()) : current);
        if (t.changed()) {
            entry.setValue(t.next().isVacant() ? null : t.next());
        }
        return t.outcome();
    }
}
