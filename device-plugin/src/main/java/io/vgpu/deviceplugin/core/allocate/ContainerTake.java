package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.cluster.ContainerView;

import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/**
 * The container an {@code Allocate} serves and the devices the scheduler assigned to it.
 *
 * @param entryIndex position of its entry in the to-allocate annotation (init containers first)
 * @param container  the container
 * @param devices    its devices, in annotation order
 */
public record ContainerTake(int entryIndex, ContainerView container, List<ContainerDevice> devices) {

    /** Copies the device list. */
    public ContainerTake {
        devices = List.copyOf(devices);
    }
}
