package io.vgpu.gateway.core.accounting;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.DeviceGrant;

import java.util.List;

/**
 * A pod the scheduler charges to a node (spec §8.1): the node from {@code hami.io/vgpu-node}, the
 * allocation from {@code hami.io/vgpu-devices-allocated}, and its current charge.
 *
 * @param uid        pod UID
 * @param namespace  pod namespace (quota)
 * @param name       pod name
 * @param node       node the pod is charged to
 * @param containers NVIDIA devices per container, init first
 * @param initCount  number of init containers
 * @param grants     the charge: collapsed, or app-only once shrunk
 * @param shrunk     whether the init shrink has happened (it happens once)
 */
public record TrackedPod(String uid, String namespace, String name, String node,
                         List<List<ContainerDevice>> containers, int initCount, List<DeviceGrant> grants,
                         boolean shrunk) {

    /** Deep copies; lists that are immutable already are kept (the decoder's are: one pod of 200,000 each). */
    public TrackedPod {
        containers = deepCopy(containers);
        grants = List.copyOf(grants);
    }

    private static List<List<ContainerDevice>> deepCopy(List<List<ContainerDevice>> containers) {
        List<List<ContainerDevice>> outer = List.copyOf(containers);
        for (List<ContainerDevice> c : outer) {
            if (List.copyOf(c) != c) {
                return outer.stream().map(List::copyOf).toList();
            }
        }
        return outer;
    }
}
