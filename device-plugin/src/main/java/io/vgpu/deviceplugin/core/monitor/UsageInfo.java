package io.vgpu.deviceplugin.core.monitor;

import java.nio.charset.StandardCharsets;

/**
 * A container's HAMi-core shared region as the monitor reads and writes it: the subset of HAMi's
 * {@code UsageInfo} interface ({@code pkg/monitor/nvidia/api}) that metrics and feedback use, with
 * HAMi's semantics.
 *
 * <ul>
 *   <li>Device arguments are region device slots {@code 0 .. 15}.</li>
 *   <li>64-bit results are C {@code uint64}: the bits are unsigned (compare with
 *       {@link Long#compareUnsigned}); the sums cover live process slots only ({@code status != 0},
 *       {@code proc_num} clamped to {@code 0..1024}).</li>
 *   <li>Reads and the two setters are single atomic loads/stores on shared memory: safe from any
 *       thread, never blocking, never taking the region's semaphore (HAMi#2500).</li>
 * </ul>
 */
public interface UsageInfo {

    /** Device slots in a region ({@code DeviceMax}): always 16. */
    int DEVICE_MAX = 16;

    /** {@code min(device_num, 16)} with {@code device_num} read as unsigned ({@code DeviceNum}). */
    int deviceNum();

    /** First byte of {@code uuids[device]} is not 0 ({@code IsValidUUID}). */
    boolean isValidUuid(int device);

    /** All 96 bytes of {@code uuids[device]}, trailing NULs included ({@code DeviceUUID}); a fresh array. */
    byte[] deviceUuidBytes(int device);

    /** Σ {@code used[device].total} ({@code DeviceMemoryTotal}), bytes, unsigned. */
    long deviceMemoryTotal(int device);

    /** {@code limit[device]} ({@code DeviceMemoryLimit}), bytes, unsigned; 0 = unlimited. */
    long deviceMemoryLimit(int device);

    /** Σ {@code used[device].context_size} ({@code DeviceMemoryContextSize}), unsigned. */
    long deviceMemoryContextSize(int device);

    /** Σ {@code used[device].module_size} ({@code DeviceMemoryModuleSize}), unsigned. */
    long deviceMemoryModuleSize(int device);

    /** Σ {@code used[device].data_size} ({@code DeviceMemoryBufferSize}), unsigned. */
    long deviceMemoryBufferSize(int device);

    /** Σ {@code device_util[device].sm_util} ({@code DeviceSmUtil}), unsigned; may exceed 100. */
    long deviceSmUtil(int device);

    /** {@code last_kernel_time} in Unix seconds; 0 when unknown and always 0 for v0 regions. */
    long lastKernelTime();

    /** {@code priority}: lower is more important; negative never takes part in feedback. */
    int priority();

    /** {@code recent_kernel}: activity countdown, negative = blocked ({@code GetRecentKernel}). */
    int recentKernel();

    /** {@code utilization_switch}: 1 = SM throttling on ({@code GetUtilizationSwitch}). */
    int utilizationSwitch();

    /** Stores {@code recent_kernel} ({@code SetRecentKernel}). */
    void setRecentKernel(int value);

    /** Stores {@code utilization_switch} ({@code SetUtilizationSwitch}). */
    void setUtilizationSwitch(int value);

    /**
     * The feedback loop's key for {@code uuids[device]}: all 96 bytes, trailing NULs included, as
     * HAMi's {@code string(uuid[:])}. Two slots share a key only when all 96 bytes match.
     */
    default String deviceKey(int device) {
        return new String(deviceUuidBytes(device), StandardCharsets.ISO_8859_1);
    }
}
