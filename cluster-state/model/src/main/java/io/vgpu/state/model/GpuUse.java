package io.vgpu.state.model;

/**
 * What a node's charges use of one registered GPU, as a {@link NodeSummary} carries it: the slots, memory and cores
 * that scoring adds to the card's registered capacity ({@link DeviceUsage#plus}).
 *
 * @param used      slots in use
 * @param usedMem   memory in use (MiB)
 * @param usedCores cores in use (percent)
 */
public record GpuUse(int used, int usedMem, int usedCores) {

    /** The use recorded in a device's usage. */
    public static GpuUse of(DeviceUsage usage) {
        return new GpuUse(usage.used(), usage.usedmem(), usage.usedcores());
    }
}
