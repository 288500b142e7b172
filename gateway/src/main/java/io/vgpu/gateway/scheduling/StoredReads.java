package io.vgpu.gateway.scheduling;

import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeState;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A resync's reads of node keys as stored ({@link ClusterState#readStoredNode}: one to re-ingest a node's cached
 * pods, one to look for charges no pod accounts for): at most {@value #IN_FLIGHT} in flight, the rest queued in
 * order, never blocking a thread. The periodic resync reads every owned key twice at once, and replicas started
 * together resync together: the 3-replica cycle row of 2026-12-07 had 1,000 of these reads in flight in one 10 s
 * window (mean 291–607 ms), queued on the partition threads ahead of the decisions' own calls ({@code state.reserve}
 * ~5 ms). A read only moves a node value, so a few partition threads' worth of them keep a resync's pace.
 */
final class StoredReads {

    /** About the store's partition threads on a small member: enough to keep them busy, not to queue on them. */
    static final int IN_FLIGHT = 16;

    private final ClusterState state;
    private final IngestWindow window = new IngestWindow(IN_FLIGHT);

    StoredReads(ClusterState state) {
        this.state = state;
    }

    /** {@link ClusterState#readStoredNode}, once fewer than {@value #IN_FLIGHT} earlier reads are in flight. */
    CompletionStage<Optional<NodeState>> read(String node) {
        return window.submit(() -> state.readStoredNode(node));
    }

    /** Reads in flight or waiting for a place now. */
    int pending() {
        return window.pending();
    }
}
