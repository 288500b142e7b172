package io.vgpu.gateway.core.health;

/**
 * What the NVIDIA health check remembers about one node between registration ticks (HAMi's
 * {@code ReportedGPUNum} and {@code ReportedRegisterAnnos} entries). A value: the caller keeps it per
 * node, passes it in and stores the one returned; forgetting a deleted node means dropping it.
 *
 * @param reportedCount      allocatable {@code nvidia.com/gpu} last seen (0 when never seen)
 * @param registerAnnotation register annotation last seen ("" when never seen or absent)
 */
public record NodeHealthMemory(long reportedCount, String registerAnnotation) {

    /** The memory of a node never seen before. */
    public static final NodeHealthMemory FRESH = new NodeHealthMemory(0, "");

    /** A null annotation is remembered as "", as a Go map lookup of a missing key reads. */
    public NodeHealthMemory {
        registerAnnotation = registerAnnotation == null ? "" : registerAnnotation;
    }
}
