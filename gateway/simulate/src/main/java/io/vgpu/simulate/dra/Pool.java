package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;

/**
 * One resource pool as the allocator sees it for one node (spec §3.3.1): the slices of its highest
 * generation that target the node, sorted by name. An incomplete pool (fewer slices than
 * {@code resourceSliceCount}) or an invalid one (a device name twice) is skipped by ExactCount requests
 * and fails All requests.
 */
record Pool(String driver, String name, long generation, List<ResourceSlice> slices, boolean incomplete,
            String invalidReason) {

    Pool {
        slices = List.copyOf(slices);
    }

    boolean invalid() {
        return invalidReason != null;
    }

    boolean usable() {
        return !incomplete && !invalid();
    }

    @Override
    public String toString() {
        return driver + "/" + name;
    }
}
