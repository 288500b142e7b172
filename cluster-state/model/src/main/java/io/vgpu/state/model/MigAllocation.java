package io.vgpu.state.model;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One entry of the pod annotation {@code hami.io/vgpu-mig-allocations} (HAMi
 * {@code pkg/device/nvidia/mig_allocations.go}): the scheduler's reservation of one MIG instance,
 * plus the runtime identity the device plugin fills in once the instance exists. Written by the
 * scheduler (gateway), realised and completed by the device plugin, read by both monitors' gauges;
 * the wire form is {@link io.vgpu.state.codec.MigAllocationsCodec}'s.
 *
 * @param containerIndex    container index, init containers first
 * @param deviceIndex       device index within the container's allocation
 * @param gpuUuid           the physical GPU
 * @param profile           MIG profile, e.g. {@code 1g.10gb}
 * @param placementStart    placement start slice
 * @param placementSize     placement size in slices
 * @param migUuid           the MIG device UUID; empty until created
 * @param gpuInstanceId     GPU instance id (uint32); empty until created
 * @param computeInstanceId compute instance id (uint32); empty until created
 */
public record MigAllocation(int containerIndex, int deviceIndex, String gpuUuid, String profile, int placementStart,
                            int placementSize, String migUuid, OptionalLong gpuInstanceId,
                            OptionalLong computeInstanceId) {

    public MigAllocation {
        gpuUuid = Objects.requireNonNullElse(gpuUuid, "");
        profile = Objects.requireNonNullElse(profile, "");
        migUuid = Objects.requireNonNullElse(migUuid, "");
        Objects.requireNonNull(gpuInstanceId, "gpuInstanceId");
        Objects.requireNonNull(computeInstanceId, "computeInstanceId");
    }

    /** A reservation without runtime identity (what the scheduler writes). */
    public static MigAllocation reserved(int containerIndex, int deviceIndex, String gpuUuid, String profile,
                                         MigPlacement placement) {
        return new MigAllocation(containerIndex, deviceIndex, gpuUuid, profile, placement.start(), placement.size(), "",
                OptionalLong.empty(), OptionalLong.empty());
    }

    /** The slices the reservation occupies on its GPU. */
    public MigPlacement placement() {
        return new MigPlacement(placementStart, placementSize);
    }

    /** This reservation with the runtime identity of the instance that realises it. */
    public MigAllocation withRuntime(String mig, long gpuInstance, long computeInstance) {
        return new MigAllocation(containerIndex, deviceIndex, gpuUuid, profile, placementStart, placementSize, mig,
                OptionalLong.of(gpuInstance), OptionalLong.of(computeInstance));
    }

    /** All three runtime fields are present: the instance exists and is worth a metric. */
    public boolean realized() {
        return !migUuid.isEmpty() && gpuInstanceId.isPresent() && computeInstanceId.isPresent();
    }

    /**
     * HAMi's {@code DecodeMigAllocations} checks: every entry complete (non-negative indices, GPU
     * UUID, profile, placement size &gt; 0), runtime identity all-or-nothing, no duplicate
     * (container, device) pair.
     *
     * @return the first violation in HAMi's words, or empty when the list is acceptable
     */
    public static Optional<String> validate(List<MigAllocation> allocations) {
        Set<List<Integer>> seen = new HashSet<>();
        for (int i = 0; i < allocations.size(); i++) {
            MigAllocation a = allocations.get(i);
            if (a.containerIndex < 0 || a.deviceIndex < 0 || a.gpuUuid.isEmpty() || a.profile.isEmpty()
                    || a.placementSize == 0) {
                return Optional.of("MIG allocation " + i + " is incomplete");
            }
            int runtime = (a.migUuid.isEmpty() ? 0 : 1) + (a.gpuInstanceId.isPresent() ? 1 : 0)
                    + (a.computeInstanceId.isPresent() ? 1 : 0);
            if (runtime != 0 && runtime != 3) {
                return Optional.of("MIG allocation " + i + " has partial runtime identity");
            }
            if (!seen.add(List.of(a.containerIndex, a.deviceIndex))) {
                return Optional.of("duplicate MIG allocation for container " + a.containerIndex + " device "
                        + a.deviceIndex);
            }
        }
        return Optional.empty();
    }
}
