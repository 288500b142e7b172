package io.vgpu.deviceplugin.core.mig;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One MIG device that exists on a GPU, as the static MIG strategies advertise it.
 *
 * @param uuid        the MIG device UUID (kubelet's device ID)
 * @param parentUuid  its GPU
 * @param parentIndex its GPU's NVML index
 * @param profile     the GPU-instance profile name, e.g. {@code 1g.5gb}
 * @param numa        its GPU's NUMA node, empty when unknown
 */
public record MigDeviceFacts(String uuid, String parentUuid, int parentIndex, String profile, OptionalInt numa) {

    /** Requires the names. */
    public MigDeviceFacts {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(parentUuid, "parentUuid");
        Objects.requireNonNull(profile, "profile");
        numa = numa == null ? OptionalInt.empty() : numa;
    }
}
