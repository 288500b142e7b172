package io.vgpu.deviceplugin.core.mig;

import io.vgpu.state.model.MigPlacement;

import java.util.List;
import java.util.Objects;

/**
 * One MIG GPU-instance profile as NVML reports it for a GPU (the core's copy of hamicore's
 * {@code GpuInstanceProfile}, so the rules stay free of JNI types).
 *
 * @param name                e.g. {@code 1g.10gb}, {@code 1g.10gb+me}
 * @param nvmlId              NVML's profile id, which instance creation takes
 * @param sliceCount          compute slices of one instance
 * @param instanceCount       how many instances of it the GPU holds at most
 * @param multiprocessorCount streaming multiprocessors of one instance
 * @param memoryMiB           memory of one instance
 * @param placements          the placements NVML allows
 */
public record NvmlMigProfile(String name, int nvmlId, int sliceCount, int instanceCount, int multiprocessorCount,
                             long memoryMiB, List<MigPlacement> placements) {

    /** Copies the placements. */
    public NvmlMigProfile {
        Objects.requireNonNull(name, "name");
        placements = List.copyOf(placements);
    }
}
