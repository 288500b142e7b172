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

    /**
     * Whether {@code other} names the same devices as the pod devices annotation writes them: per container, each
     * device's UUID, type, memory and cores, in order. Two things differ between a decision and the same allocation
     * read back from the annotation, and neither is a different binding: {@code idx} is not on the wire (HAMi encodes
     * {@code uuid,type,mem,cores}; decoded entries carry idx 0), and the encoding ends every container with
     * {@code ;}, so the decode has one empty container more. Comparing with {@code equals} made every informer
     * observation of a decided pod look like another binding: a pod-index read and a rewrite of the node (with its
     * summary fanned out to every replica) per observation, three per decision.
     */
    public boolean sameDevices(PodAllocation other) {
        if (other == null || initCount != other.initCount) {
            return false;
        }
        int count = Math.max(containers.size(), other.containers.size());
        for (int c = 0; c < count; c++) {
            List<ContainerDevice> mine = c < containers.size() ? containers.get(c) : List.of();
            List<ContainerDevice> theirs = c < other.containers.size() ? other.containers.get(c) : List.of();
            if (mine.size() != theirs.size()) {
                return false;
            }
            for (int d = 0; d < mine.size(); d++) {
                ContainerDevice a = mine.get(d);
                ContainerDevice b = theirs.get(d);
                if (a.usedmem() != b.usedmem() || a.usedcores() != b.usedcores() || !a.uuid().equals(b.uuid())
                        || !a.type().equals(b.type())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The charge this allocation holds on the node (spec §8.2). */
    public List<DeviceGrant> grants() {
        return UsageAccounting.collapse(containers, initCount);
    }
}
