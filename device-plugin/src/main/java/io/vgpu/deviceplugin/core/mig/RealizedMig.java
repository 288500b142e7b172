package io.vgpu.deviceplugin.core.mig;

import java.util.Objects;

/**
 * A dynamic-MIG instance that exists for a reservation: its NVML identity and whether the call that
 * returned it created it (only those are undone when the allocation cannot be recorded).
 *
 * @param key               the reservation it realises
 * @param gpuInstanceId     NVML's GPU instance id
 * @param computeInstanceId NVML's compute instance id
 * @param migUuid           the MIG device UUID the container gets
 * @param created           created by this call (false: it already existed for the same key)
 */
public record RealizedMig(MigKey key, int gpuInstanceId, int computeInstanceId, String migUuid, boolean created) {

    /** Requires the key and the UUID. */
    public RealizedMig {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(migUuid, "migUuid");
    }
}
