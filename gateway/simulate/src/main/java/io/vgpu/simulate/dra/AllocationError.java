package io.vgpu.simulate.dra;

/**
 * An error that aborts the allocation attempt for the pod (kube-scheduler's Filter returns an error
 * status, not "unschedulable"): a CEL error, an unsupported request shape, a malformed quantity. Thrown
 * inside the search to unwind it; the allocator turns it into {@link AllocationOutcome.Failed}.
 */
final class AllocationError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    AllocationError(String message) {
        super(message, null, false, false);
    }

    AllocationError(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
