package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeState;

import java.util.Map;

/**
 * Drops one pod's reservation on the node, keeping a binding ({@link NodeState#releaseReservation}). Returns true when
 * a reservation was dropped.
 *
 * @param podUid the pod's UID
 */
public record ReleaseReservationProcessor(String podUid) implements EntryProcessor<String, NodeState, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, NodeState> entry) {
        return StateEntries.applyToNode(entry, s -> s.releaseReservation(podUid));
    }
}
