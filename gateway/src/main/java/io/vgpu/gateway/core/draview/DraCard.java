package io.vgpu.gateway.core.draview;

import io.vgpu.state.model.DeviceUsage;

import java.util.List;

/**
 * One GPU of a DRA-mode node: what its ResourceSlice publishes and what the allocated claims consume of it.
 *
 * @param node         the node (the slice's pool)
 * @param device       the device name, e.g. {@code gpu-0}
 * @param uuid         attribute {@code uuid}
 * @param index        attribute {@code index}
 * @param productName  attribute {@code productName}
 * @param numa         attribute {@code numa}, -1 when absent
 * @param healthy      no NoSchedule/NoExecute taint
 * @param memoryMiB    capacity {@code memory}, MiB
 * @param cores        capacity {@code cores}
 * @param splitCount   shares that fit by slots (1000 / the default slot request)
 * @param shares       claims' results on the card
 * @param usedMemoryMiB memory consumed by them, MiB
 * @param usedCores    cores consumed by them
 * @param usedSlots    slots consumed by them
 */
public record DraCard(String node, String device, String uuid, int index, String productName, int numa,
                      boolean healthy, long memoryMiB, long cores, int splitCount, List<DraShare> shares,
                      long usedMemoryMiB, long usedCores, long usedSlots) {

    /** Copies the share list. */
    public DraCard {
        shares = shares == null ? List.of() : List.copyOf(shares);
    }

    /** The card in HAMi's usage terms, so device-plugin and DRA cards are exported by the same code. */
    public DeviceUsage usage() {
        return new DeviceUsage(uuid, index, shares.size(), splitCount, clamp(usedMemoryMiB), clamp(memoryMiB),
                clamp(usedCores), clamp(cores), numa, productName, healthy, "hami-core", List.of(), List.of());
    }

    private static int clamp(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }
}
