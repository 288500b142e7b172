package io.vgpu.simulate.dra;

import java.util.List;

/**
 * What {@link DraAllocator#allocate} decides for one pod on one node, in kube-scheduler's terms:
 * <pre>
 *   Allocated      every claim of the pod is (or can be) allocated on the node — Filter passes
 *   Unschedulable  the pod does not fit this node (or waits for an object) — Filter says "unschedulable"
 *   Failed         the attempt cannot be evaluated (CEL error, unsupported request, bad quantity) —
 *                  Filter returns an error and the pod's scheduling attempt fails as a whole
 * </pre>
 */
public sealed interface AllocationOutcome {

    /** The reason to show (Event or log); empty for {@link Allocated}. */
    String reason();

    /**
     * The allocations to write, one per claim the pod needed allocated, in the pod's claim order, the
     * extended-resource claim (if any) last. Claims that were already allocated are not listed.
     */
    record Allocated(List<ClaimAllocation> claims) implements AllocationOutcome {
        /** Copies the list. */
        public Allocated {
            claims = List.copyOf(claims);
        }

        @Override
        public String reason() {
            return "";
        }
    }

    /** The pod cannot use this node now; {@code reason} in kube-scheduler's words where it has them. */
    record Unschedulable(String reason) implements AllocationOutcome {
    }

    /** The attempt failed with an error that no other node would avoid. */
    record Failed(String reason) implements AllocationOutcome {
    }
}
