package io.vgpu.deviceplugin.devices;

import java.util.Objects;

/**
 * One change of one GPU's health, as {@link DeviceState} reports it to Events and metrics.
 *
 * @param uuid    the GPU
 * @param healthy its health now
 * @param reason  why (the cause of an unhealthy mark, {@code recovered}, or the device source's own word)
 */
record HealthTransition(String uuid, boolean healthy, String reason) {

    /** Requires the fields. */
    public HealthTransition {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(reason, "reason");
    }
}
