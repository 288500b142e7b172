package io.vgpu.deviceplugin.dra.prepare;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One device of a NodePrepareResources answer ({@code Device} of the kubelet DRA API).
 *
 * @param requestNames the request it serves, reduced to the main request name (the kubelet compares
 *                     it with {@code containers[].resources.claims[].request})
 * @param poolName     the pool (this node)
 * @param deviceName   {@code gpu-<minor>}
 * @param cdiDeviceIds fully qualified CDI names the runtime injects, ours first
 * @param shareId      the allocation's share ID (v1 answers only; never sent on v1beta1)
 */
public record KubeletDevice(List<String> requestNames, String poolName, String deviceName, List<String> cdiDeviceIds,
                            Optional<String> shareId) {

    /** Copies the lists. */
    public KubeletDevice {
        requestNames = List.copyOf(requestNames);
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(deviceName, "deviceName");
        cdiDeviceIds = List.copyOf(cdiDeviceIds);
        shareId = shareId == null ? Optional.empty() : shareId;
    }
}
