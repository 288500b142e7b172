package io.vgpu.hamicore;

import java.util.List;

/**
 * What libvgpu's region creator derives from the container environment
 * ({@code CUDA_DEVICE_MEMORY_LIMIT[_i]}, {@code CUDA_DEVICE_SM_LIMIT[_i]}, {@code CUDA_TASK_PRIORITY}).
 *
 * @param memoryLimitBytes per-device memory limits in bytes (at most 16; missing entries are 0 = unlimited)
 * @param smLimitPercent   per-device SM limits in percent (at most 16; missing or 0 entries become 100)
 * @param priority         task priority (libvgpu's default is 1; lower is higher)
 */
public record RegionInit(List<Long> memoryLimitBytes, List<Long> smLimitPercent, int priority) {

    public RegionInit {
        memoryLimitBytes = List.copyOf(memoryLimitBytes);
        smLimitPercent = List.copyOf(smLimitPercent);
        if (memoryLimitBytes.size() > SharedRegion.MAX_DEVICES || smLimitPercent.size() > SharedRegion.MAX_DEVICES) {
            throw new IllegalArgumentException("at most " + SharedRegion.MAX_DEVICES + " devices");
        }
    }

    /** No limits, priority 1: what libvgpu writes with an empty environment. */
    public static RegionInit defaults() {
        return new RegionInit(List.of(), List.of(), 1);
    }

    /** The limit[] value for device {@code d}. */
    long memoryLimit(int d) {
        return d < memoryLimitBytes.size() ? memoryLimitBytes.get(d) : 0;
    }

    /** The sm_limit[] value for device {@code d}: unset or 0 means 100 (spec §1.3). */
    long smLimit(int d) {
        long value = d < smLimitPercent.size() ? smLimitPercent.get(d) : 0;
        return value == 0 ? 100 : value;
    }
}
