package io.vgpu.hamicore;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A HAMi-core shared region ({@code shared_region_t}), mapped from a container's
 * {@code <uuid>.cache} file or held in memory, read and written with the same 32/64-bit atomic
 * loads and stores HAMi's Go monitor uses. Method names follow HAMi's {@code UsageInfo}
 * ({@code DeviceMemoryTotal} → {@link #deviceMemoryTotal}), and so do their rules:
 * <ul>
 *   <li>device arguments are 0..15 ({@link IndexOutOfBoundsException} otherwise);</li>
 *   <li>the per-device sums cover slots {@code 0 .. clamp(proc_num, 0, 1024) - 1} and skip slots
 *       whose {@code status == 0}; they ignore the slot seqlock, as HAMi does;</li>
 *   <li>64-bit values are unsigned in C: compare them with {@link Long#compareUnsigned}.</li>
 * </ul>
 *
 * <p><b>Locking.</b> Nothing here takes the region's semaphores, and a monitor must never take
 * them: a process that dies holding {@code sem} blocks every CUDA process of the container for
 * minutes and then kills them (HAMi#2500). {@link RegionSemaphore} exists for tools and tests only.
 *
 * <p><b>Threading.</b> Every accessor is a plain memory access on the mapping (no I/O, no
 * blocking) and is safe from any thread; concurrent writers (libvgpu in the container) are
 * expected. There is nothing to close: the mapping is released when the object is unreachable.
 */
public interface SharedRegion {

    /** {@code MULTIPROCESS_SHARED_REGION_MAGIC_FLAG}, in {@code initialized_flag} once ready. */
    int MAGIC = 19920718;
    /** {@code CUDA_DEVICE_MAX_COUNT}. */
    int MAX_DEVICES = HamiCoreHeaders.MAX_DEVICES;
    /** {@code SHARED_REGION_MAX_PROCESS_NUM}. */
    int MAX_PROCESSES = HamiCoreHeaders.MAX_PROCESSES;
    /** Bytes of one {@code uuids[]} entry. */
    int UUID_BYTES = HamiCoreHeaders.UUID_BYTES;

    RegionLayout layout();

    /** The mapped file, empty for an in-memory region. */
    Optional<Path> file();

    // ---- header ----

    int initializedFlag();

    /** {@code initialized_flag == MAGIC}: the creator finished initialising. */
    default boolean isInitialized() {
        return initializedFlag() == MAGIC;
    }

    /** major_version (V1); empty in V0, which has no version fields. */
    OptionalInt majorVersion();

    /** minor_version (V1: 1 or 2 in practice); empty in V0. */
    OptionalInt minorVersion();

    int smInitFlag();

    /** Container PID holding {@code sem}, 0 when free. */
    long ownerPid();

    // ---- devices ----

    /** Always 16 ({@code DeviceMax}). */
    default int deviceMax() {
        return MAX_DEVICES;
    }

    /** {@code min(device_num, 16)}, comparing the stored value as unsigned ({@code DeviceNum}). */
    int deviceNum();

    /** The raw {@code device_num} (unsigned 64-bit). */
    long rawDeviceNum();

    /** First byte of {@code uuids[device]} is not 0 ({@code IsValidUUID}). */
    boolean isValidUuid(int device);

    /** All 96 bytes of {@code uuids[device]}, trailing NULs included (the feedback loop's key). */
    byte[] deviceUuidBytes(int device);

    /** {@code uuids[device]} up to the first NUL, decoded as UTF-8 (invalid bytes replaced). */
    String deviceUuid(int device);

    /** {@code limit[device]}: memory limit in bytes, 0 = unlimited ({@code DeviceMemoryLimit}). */
    long deviceMemoryLimit(int device);

    /** {@code sm_limit[device]}: SM limit in percent. */
    long deviceSmLimit(int device);

    // ---- per-device sums over live slots ----

    /** Σ {@code used[device].context_size} ({@code DeviceMemoryContextSize}). */
    long deviceMemoryContextSize(int device);

    /** Σ {@code used[device].module_size} ({@code DeviceMemoryModuleSize}). */
    long deviceMemoryModuleSize(int device);

    /** Σ {@code used[device].data_size} ({@code DeviceMemoryBufferSize}). */
    long deviceMemoryBufferSize(int device);

    /** Σ {@code used[device].offset} ({@code DeviceMemoryOffset}). */
    long deviceMemoryOffset(int device);

    /** Σ {@code used[device].total} ({@code DeviceMemoryTotal}). */
    long deviceMemoryTotal(int device);

    /** Σ {@code device_util[device].sm_util} ({@code DeviceSmUtil}); may exceed 100. */
    long deviceSmUtil(int device);

    // ---- processes ----

    /** Raw {@code proc_num} (may be corrupt: negative or above 1024). */
    int procNum();

    /**
     * Snapshots of slots {@code 0 .. clamp(proc_num, 0, 1024) - 1}, dead ones included. In V1 each
     * slot's {@code used[]} is read under its seqlock (retried a few times while a writer is
     * mid-update; the last read is returned if the writer never finishes, e.g. because it died).
     */
    List<ProcessSlot> processes();

    // ---- scheduling state ----

    /** {@code utilization_switch}: 1 = SM limiting on ({@code GetUtilizationSwitch}). */
    int utilizationSwitch();

    /** {@code recent_kernel}: activity countdown; negative = blocked ({@code GetRecentKernel}). */
    int recentKernel();

    /** {@code priority}: lower is higher ({@code GetPriority}). */
    int priority();

    /** {@code last_kernel_time}, Unix seconds; always 0 in V0 ({@code LastKernelTime}). */
    long lastKernelTime();

    // ---- writes done by the monitor (32/64-bit atomic stores) ----

    /** Stores {@code recent_kernel} ({@code SetRecentKernel}). */
    void setRecentKernel(int value);

    /** Stores {@code utilization_switch} ({@code SetUtilizationSwitch}). */
    void setUtilizationSwitch(int value);

    /** Stores {@code value} into {@code sm_limit[0 .. deviceNum()-1]} ({@code SetDeviceSmLimit}). */
    void setDeviceSmLimit(long value);

    /** Stores {@code value} into {@code limit[0 .. deviceNum()-1]} ({@code SetDeviceMemoryLimit}). */
    void setDeviceMemoryLimit(long value);
}
