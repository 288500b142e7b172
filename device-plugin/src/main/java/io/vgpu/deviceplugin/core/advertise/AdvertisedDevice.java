package io.vgpu.deviceplugin.core.advertise;

import java.util.OptionalInt;

/**
 * One device of a ListAndWatch answer (the device-plugin API's {@code Device}).
 *
 * @param id     kubelet device ID, e.g. {@code GPU-…-3}
 * @param health {@value #HEALTHY} or {@value #UNHEALTHY}
 * @param numa   the {@code topology.nodes[0].ID}; empty = no topology
 */
public record AdvertisedDevice(String id, String health, OptionalInt numa) {

    /** kubelet's healthy string. */
    public static final String HEALTHY = "Healthy";
    /** kubelet's unhealthy string. */
    public static final String UNHEALTHY = "Unhealthy";
}
