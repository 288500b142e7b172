package io.vgpu.deviceplugin.core.advertise;

import java.util.Map;
import java.util.Set;

/**
 * The physical devices this plugin serves, as far as {@code Allocate} needs them.
 *
 * @param knownIds    IDs of the devices (GPU UUIDs; MIG device IDs when MIG devices are passed through)
 * @param indexByUuid NVML index per GPU UUID (for the {@code index} device-ID strategy)
 */
public record DeviceInventory(Set<String> knownIds, Map<String, Integer> indexByUuid) {

    /** Copies both. */
    public DeviceInventory {
        knownIds = Set.copyOf(knownIds);
        indexByUuid = Map.copyOf(indexByUuid);
    }

    /** No devices. */
    public static DeviceInventory empty() {
        return new DeviceInventory(Set.of(), Map.of());
    }

    /** True when {@code id} is one of the devices. */
    public boolean knows(String id) {
        return knownIds.contains(id);
    }
}
