package io.vgpu.deviceplugin.core.advertise;

import java.util.List;

/**
 * GPUs a node must neither advertise nor register ({@code filterdevices}).
 *
 * @param uuids   by UUID
 * @param indices by NVML index
 */
public record DeviceFilter(List<String> uuids, List<Integer> indices) {

    /** Copies the lists. */
    public DeviceFilter {
        uuids = List.copyOf(uuids);
        indices = List.copyOf(indices);
    }

    /** Filters nothing. */
    public static DeviceFilter none() {
        return new DeviceFilter(List.of(), List.of());
    }

    /** True when the GPU must be left out. */
    public boolean excludes(String uuid, int index) {
        return uuids.contains(uuid) || indices.contains(index);
    }
}
