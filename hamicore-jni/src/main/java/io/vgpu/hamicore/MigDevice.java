package io.vgpu.hamicore;

import java.util.Objects;

/**
 * One MIG device of a GPU ({@code nvmlDeviceGetMigDeviceHandleByIndex}): what a container sees, one
 * per compute instance.
 *
 * @param uuid              the MIG device UUID, e.g. {@code MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f}
 * @param gpuInstanceId     its GPU instance
 * @param computeInstanceId its compute instance
 */
public record MigDevice(String uuid, int gpuInstanceId, int computeInstanceId) {

    /** Requires a UUID. */
    public MigDevice {
        Objects.requireNonNull(uuid, "uuid");
    }
}
