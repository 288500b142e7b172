package io.vgpu.state.dra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One device of a ResourceSlice ({@code spec.devices[]}, spec/dra-spec.md §1.2): for this driver, one
 * physical GPU. Maps keep their insertion order, so the JSON a codec writes is stable.
 *
 * @param name                     a DNS label unique in the pool ({@link DraNames#deviceName})
 * @param attributes               qualified name → value; names without a domain are in the driver's
 * @param capacity                 qualified name → capacity
 * @param allowMultipleAllocations several claims may share the device, each consuming capacity
 * @param taints                   at most 16
 */
public record SliceDevice(String name, Map<String, DeviceAttribute> attributes, Map<String, DeviceCapacity> capacity,
                          boolean allowMultipleAllocations, List<DeviceTaint> taints) {

    /** Copies the collections, keeping the maps' order; nulls become empty. */
    public SliceDevice {
        Objects.requireNonNull(name, "name");
        attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        capacity = capacity == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(capacity));
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** The same device with other taints. */
    public SliceDevice withTaints(List<DeviceTaint> newTaints) {
        return new SliceDevice(name, attributes, capacity, allowMultipleAllocations, newTaints);
    }
}
