package io.vgpu.gateway.core.health;

/**
 * HAMi's NVIDIA wrapper around the handshake rule ({@code NvidiaGPUDevices.CheckHealth}, spec §7.2).
 * Pure: the per-node memory is passed in and the new memory returned.
 *
 * <pre>
 *  current = allocatable nvidia.com/gpu; generic = HandshakeRule verdict (already applied, may have patched)
 *  current = 0, reported = 0 ─────────────────► generic                      memory unchanged
 *  current = 0, reported ≠ 0 ─────────────────► UNHEALTHY, generic.update    memory := (0, annotation)
 *  current ≠ reported ────────────────────────► healthy, update              memory := (current, annotation)
 *  annotation ≠ remembered (deleted included) ► generic.healthy, update      memory.annotation := annotation
 *  otherwise ─────────────────────────────────► generic                      memory unchanged
 * </pre>
 *
 * <p>Net effect: once stamped, a node stays healthy as long as kubelet reports a non-zero allocatable.
 */
public final class NvidiaHealth {

    private NvidiaHealth() {
    }

    /**
     * The result of one check and the memory to keep for the node.
     *
     * @param verdict healthy / needs an update
     * @param memory  the memory to store for the node
     */
    public record Result(HealthVerdict verdict, NodeHealthMemory memory) {
    }

    /**
     * Applies the wrapper.
     *
     * @param generic            the generic handshake verdict for this node
     * @param allocatableCount   the node's allocatable {@code nvidia.com/gpu} now
     * @param registerAnnotation the register annotation now, or null when absent (read as "")
     * @param memory             what was remembered for the node ({@link NodeHealthMemory#FRESH} if nothing)
     */
    public static Result check(HealthVerdict generic, long allocatableCount, String registerAnnotation,
                               NodeHealthMemory memory) {
        String annotation = registerAnnotation == null ? "" : registerAnnotation;
        if (allocatableCount == 0) {
            if (memory.reportedCount() == 0) {
                return new Result(generic, memory);
            }
            return new Result(new HealthVerdict(false, generic.needUpdate()), new NodeHealthMemory(0, annotation));
        }
        if (memory.reportedCount() != allocatableCount) {
            return new Result(new HealthVerdict(true, true), new NodeHealthMemory(allocatableCount, annotation));
        }
        if (!memory.registerAnnotation().equals(annotation)) {
            return new Result(new HealthVerdict(generic.healthy(), true),
                    new NodeHealthMemory(memory.reportedCount(), annotation));
        }
        return new Result(generic, memory);
    }
}
