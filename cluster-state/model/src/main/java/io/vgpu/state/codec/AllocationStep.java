package io.vgpu.state.codec;

import io.vgpu.state.model.ContainerDevice;

import java.util.List;

/**
 * One kubelet {@code Allocate} as the device plugin consumes {@code hami.io/vgpu-devices-to-allocate}
 * (spec §6.3): the first container entry that still lists devices is taken and blanked.
 *
 * @param containerIndex position of the taken entry (init containers first, then app containers)
 * @param devices        the devices that entry listed, in annotation order
 * @param remaining      the annotation value to patch back, with that entry blanked
 */
public record AllocationStep(int containerIndex, List<ContainerDevice> devices, String remaining) {

    /** Copies the device list. */
    public AllocationStep {
        devices = List.copyOf(devices);
    }
}
