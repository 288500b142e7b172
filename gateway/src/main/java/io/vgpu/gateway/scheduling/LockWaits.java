package io.vgpu.gateway.scheduling;

/**
 * Where the wait for a lock is recorded: its end ({@code acquired}, {@code timeout}, {@code failed}), its length, and
 * each try that found the lock held by another pod.
 */
@FunctionalInterface
public interface LockWaits {
    /** Records nothing. */
    LockWaits NONE = (outcome, nanos) -> { };

    /** One bind's wait for its node's lock ended with {@code outcome} after {@code nanos}. */
    void record(String outcome, long nanos);

    /** One try found the node's lock held by another pod; the bind waits and tries again. */
    default void contended() {
    }
}
