package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The devices a scheduling decision gives one pod on one node, per container (init containers first),
 * for the NVIDIA vendor: exactly what the pod devices annotation carries.
 *
 * @param containers one list per container, init containers first, possibly empty lists
 * @param initCount  how many of {@code containers} are init containers
 */
public record PodAllocation(List<List<ContainerDevice>> containers, int initCount) {

    /** Deep copy of the container lists. */
    public PodAllocation {
        // a loop, not a stream: one allocation per fitting node and filter call (the hot path at 10,000 nodes)
        List<List<ContainerDevice>> copy = new ArrayList<>(containers.size());
        for (List<ContainerDevice> c : containers) {
            copy.add(List.copyOf(c));
        }
        containers = List.copyOf(copy);
    }

    /** The charge this allocation holds on the node (spec §8.2). */
    public List<DeviceGrant> grants() {
        return UsageAccounting.collapse(containers, initCount);
    }
}
