package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.Map;

/**
 * A device at its place in the search order (pool, slice by name, device order in the slice), with its
 * capacities parsed once.
 */
record Candidate(DeviceId id, Pool pool, ResourceSlice slice, Device device, Map<String, ConsumableCapacity.Capacity> capacities) {

    Candidate {
        capacities = Map.copyOf(capacities);
    }

    boolean shared() {
        return Boolean.TRUE.equals(device.getAllowMultipleAllocations());
    }
}
