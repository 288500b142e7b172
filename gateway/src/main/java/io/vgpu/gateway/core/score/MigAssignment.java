package io.vgpu.gateway.core.score;

import io.vgpu.state.model.MigPlacement;

/**
 * One MIG instance a scheduling decision reserves: an element of the pod annotation
 * {@code hami.io/vgpu-mig-allocations} (spec §9.6) without the runtime fields the device plugin fills in.
 *
 * @param containerIndex position of the container in the allocation (init containers first)
 * @param deviceIndex    position of the device in that container's list
 * @param gpuUuid        the physical GPU
 * @param profile        the MIG profile name, e.g. {@code 1g.10gb}
 * @param placement      the slices the instance occupies
 */
public record MigAssignment(int containerIndex, int deviceIndex, String gpuUuid, String profile,
                            MigPlacement placement) {
}
