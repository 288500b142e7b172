package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a pod fits one node, and if so how (the outcome of {@link NodeScorer#score}). Expected
 * rejections are values, not exceptions.
 */
public sealed interface NodeVerdict permits NodeVerdict.Fits, NodeVerdict.Unschedulable {

    /**
     * The pod fits.
     *
     * @param score          the node score (spec §10.3), from the node's usage before this pod
     * @param allocation     one list per container of the pod, init containers first, empty for containers
     *                       without a GPU request: exactly what {@code hami.io/vgpu-devices-allocated} carries
     * @param migAssignments the MIG instances of the allocation ({@code hami.io/vgpu-mig-allocations});
     *                       empty when no MIG card was chosen
     */
    record Fits(float score, List<List<ContainerDevice>> allocation, List<MigAssignment> migAssignments)
            implements NodeVerdict {

        /** Deep copy. */
        public Fits {
            // a loop, not a stream: one verdict per fitting node and filter call
            List<List<ContainerDevice>> copy = new ArrayList<>(allocation.size());
            for (List<ContainerDevice> c : allocation) {
                copy.add(List.copyOf(c));
            }
            allocation = List.copyOf(copy);
            migAssignments = List.copyOf(migAssignments);
        }

        /** A fit without MIG instances. */
        public Fits(float score, List<List<ContainerDevice>> allocation) {
            this(score, allocation, List.of());
        }
    }

    /**
     * The pod does not fit; {@code rejection} says why (the first failing container's): Fit's counters, e.g.
     * {@code 2/2 CardInsufficientMemory} as HAMi's text, or a node-level reason such as
     * {@code NodeInsufficientDevice}.
     *
     * @param rejection the failure reason
     */
    record Unschedulable(NodeRejection rejection) implements NodeVerdict {
    }
}
