package io.vgpu.deviceplugin.core.advertise;

import java.util.OptionalInt;

/**
 * One device the plugin serves, as ListAndWatch sees it.
 *
 * @param id      GPU UUID (or an upstream MIG device ID)
 * @param index   NVML index
 * @param healthy current health (XID checks may turn it off; it never comes back without a restart)
 * @param numa    NUMA node, empty when unknown
 */
public record PhysicalDevice(String id, int index, boolean healthy, OptionalInt numa) {

    /** Requires an ID; null NUMA means unknown. */
    public PhysicalDevice {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("device id is empty");
        }
        numa = numa == null ? OptionalInt.empty() : numa;
    }

    /** The same device marked unhealthy. */
    public PhysicalDevice unhealthy() {
        return new PhysicalDevice(id, index, false, numa);
    }
}
