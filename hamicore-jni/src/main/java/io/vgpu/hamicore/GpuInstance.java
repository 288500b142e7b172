package io.vgpu.hamicore;

import java.util.List;
import java.util.Objects;

/**
 * A MIG GPU instance that exists on a GPU ({@code nvmlGpuInstanceGetInfo}) and the compute instances
 * inside it.
 *
 * @param id                 NVML's GPU instance id (unique per GPU)
 * @param profileId          NVML's id of the profile it was created with ({@link GpuInstanceProfile#id()})
 * @param placement          the slices it occupies
 * @param computeInstanceIds ids of its compute instances, ascending
 */
public record GpuInstance(int id, int profileId, InstancePlacement placement, List<Integer> computeInstanceIds) {

    /** Copies the ids. */
    public GpuInstance {
        Objects.requireNonNull(placement, "placement");
        computeInstanceIds = List.copyOf(computeInstanceIds);
    }
}
