package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;

/** A device at its place in the search order (pool, slice by name, device order in the slice). */
record Candidate(DeviceId id, Pool pool, ResourceSlice slice, Device device) {

    boolean shared() {
        return Boolean.TRUE.equals(device.getAllowMultipleAllocations());
    }
}
