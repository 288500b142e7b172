package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.score.MigAssignment;
import io.vgpu.state.model.PodAllocation;

import java.util.List;

/**
 * A node the pod fits on, with the allocation that would be written to the pod.
 *
 * @param node           node name
 * @param score          HAMi node score (usage before the pod)
 * @param allocation     per-container NVIDIA devices, init containers first
 * @param migAssignments MIG instances of the allocation (empty without MIG)
 */
public record Candidate(String node, float score, PodAllocation allocation, List<MigAssignment> migAssignments) {

    /** Copies the list. */
    public Candidate {
        migAssignments = List.copyOf(migAssignments);
    }
}
