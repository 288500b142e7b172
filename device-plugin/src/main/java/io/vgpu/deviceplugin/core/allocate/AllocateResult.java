package io.vgpu.deviceplugin.core.allocate;

import io.vgpu.deviceplugin.core.pending.PodRef;
import java.util.List;

/** How one kubelet {@code Allocate} ended ({@link AllocationService#allocate}). */
public sealed interface AllocateResult permits AllocateResult.Allocated, AllocateResult.Rejected {

    /**
     * Answer kubelet with these responses.
     *
     * @param pod       the pod served; null for static MIG devices answered without a HAMi pod
     * @param responses one per container request, in order
     * @param finish    whether the pod's allocation completed (bind-phase, lock); null without a pod
     */
    record Allocated(PodRef pod, List<ContainerResponse> responses, FinishReport finish) implements AllocateResult {

        /** Copies the responses. */
        public Allocated {
            responses = List.copyOf(responses);
        }
    }

    /**
     * Fail the RPC with {@code message}.
     *
     * @param pod     the pod the failure was charged to, or null when no pod could be found
     * @param message the error kubelet gets
     * @param finish  what was done to the pod and the lock (bind-phase failed, release), or null without a pod
     */
    record Rejected(PodRef pod, String message, FinishReport finish) implements AllocateResult {
    }
}
