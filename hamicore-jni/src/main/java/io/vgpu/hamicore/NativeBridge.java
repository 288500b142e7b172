package io.vgpu.hamicore;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of {@code libvgpuhamicore.so} ({@code src/main/c/hamicore_jni.c}). The C
 * side only converts types and forwards; NVML failures arrive as {@link NvmlException}, semaphore
 * calls return errno (0 = success). Every method blocks for the length of the native call.
 * Callers must have run {@link NativeLibrary#load()} and must never pass a closed handle.
 */
final class NativeBridge {

    private NativeBridge() {
    }

    /** dlopen + nvmlInit_v2; returns an opaque handle (never 0). */
    static native long nvmlOpen(String libraryPath);

    /** nvmlShutdown + dlclose; the handle is invalid afterwards. */
    static native void nvmlClose(long nvml);

    static native int deviceCount(long nvml);

    /** UTF-8 bytes of the UUID, without the terminating NUL. */
    static native byte[] deviceUuid(long nvml, int index);

    static native byte[] deviceName(long nvml, int index);

    static native byte[] devicePciBusId(long nvml, int index);

    /** {total, free, used} in bytes. */
    static native long[] deviceMemory(long nvml, int index);

    /** {gpu percent, memory percent}. */
    static native int[] deviceUtilization(long nvml, int index);

    /** {current, pending}; NOT_SUPPORTED surfaces as an exception. */
    static native int[] deviceMigMode(long nvml, int index);

    /** nvmlDeviceGetMinorNumber: N of {@code /dev/nvidiaN}. */
    static native int deviceMinorNumber(long nvml, int index);

    /** Raw {@code nvmlDeviceArchitecture_t}; NVML_DEVICE_ARCH_UNKNOWN (0xffffffff) arrives as -1. */
    static native int deviceArchitecture(long nvml, int index);

    /** Raw {@code nvmlBrandType_t}. */
    static native int deviceBrand(long nvml, int index);

    /** {major, minor} of nvmlDeviceGetCudaComputeCapability. */
    static native int[] deviceCudaComputeCapability(long nvml, int index);

    /** UTF-8 bytes of nvmlSystemGetDriverVersion, e.g. {@code 550.54.15}. */
    static native byte[] systemDriverVersion(long nvml);

    /** nvmlSystemGetCudaDriverVersion_v2: 1000 * major + 10 * minor, e.g. 12040. */
    static native int systemCudaDriverVersion(long nvml);

    /** The name of an architecture code ({@code vg_nvml_architecture_name}); "Unknown" for codes it does not know. */
    static native String architectureName(int architecture);

    /** The name of a brand code ({@code vg_nvml_brand_name}); "Unknown" for codes it does not know. */
    static native String brandName(int brand);

    /** nvmlDeviceGetGpuInstanceProfileInfo: {NVML's profile id, slices, instances, multiprocessors, memory MiB}. */
    static native long[] gpuInstanceProfile(long nvml, int index, int profile);

    /** nvmlDeviceGetGpuInstancePossiblePlacements_v2: {start, size, start, size, ...}. */
    static native int[] gpuInstancePlacements(long nvml, int index, int profileId);

    /** nvmlDeviceSetMigMode; a failed activation throws with its status. */
    static native void setMigMode(long nvml, int index, boolean enabled);

    /** nvmlDeviceCreateGpuInstanceWithPlacement; the new GPU instance's id. */
    static native int createGpuInstance(long nvml, int index, int profileId, int start, int size);

    /** nvmlGpuInstanceCreateComputeInstance of an NVML_COMPUTE_INSTANCE_PROFILE_* constant; the new id. */
    static native int createComputeInstance(long nvml, int index, int gpuInstanceId, int computeProfile);

    static native void destroyComputeInstance(long nvml, int index, int gpuInstanceId, int computeInstanceId);

    static native void destroyGpuInstance(long nvml, int index, int gpuInstanceId);

    /** nvmlDeviceGetGpuInstances of one profile id: {id, profile id, start, size, ...}. */
    static native int[] gpuInstances(long nvml, int index, int profileId);

    /** The compute instance ids of one NVML_COMPUTE_INSTANCE_PROFILE_* constant inside a GPU instance. */
    static native int[] computeInstances(long nvml, int index, int gpuInstanceId, int computeProfile);

    /** nvmlDeviceGetMaxMigDeviceCount. */
    static native int migDeviceCount(long nvml, int index);

    /** The MIG device in slot {@code migIndex}: its UUID bytes; {@code ids} receives {gpu instance, compute instance}. */
    static native byte[] migDevice(long nvml, int index, int migIndex, int[] ids);

    /** Compute + graphics processes of the GPU ({@code migIndex} &lt; 0) or of one of its MIG devices. */
    static native int processCount(long nvml, int index, int migIndex);

    /** nvmlDeviceGetTopologyCommonAncestor: the nvmlGpuTopologyLevel_t of two GPUs. */
    static native int topologyCommonAncestor(long nvml, int index1, int index2);

    /** nvmlDeviceGetNvLinkState of one link. */
    static native boolean nvLinkActive(long nvml, int index, int link);

    /** nvmlDeviceGetNvLinkRemotePciInfo_v2: UTF-8 bytes of the remote end's PCI bus id. */
    static native byte[] nvLinkRemoteBusId(long nvml, int index, int link);

    /** nvmlDeviceGetNvLinkRemoteDeviceType: 0 GPU, 1 IBM NPU, 2 NVSwitch, 255 unknown. */
    static native int nvLinkRemoteType(long nvml, int index, int link);

    static native long eventSetCreate(long nvml);

    static native void eventRegisterXid(long nvml, long set, int index);

    /**
     * Waits for one event; on success fills {@code out} with {type, data, gpu instance, compute
     * instance} and returns the device UUID bytes (possibly empty); returns null on timeout.
     */
    static native byte[] eventWait(long nvml, long set, int timeoutMillis, long[] out);

    static native void eventSetFree(long nvml, long set);

    /** NUMA node from {@code <sysfsRoot>/bus/pci/devices/<name>/numa_node}; 0 when unknown. */
    static native int numaNode(String sysfsRoot, String busId);

    /** The sysfs directory name for an NVML bus id ({@code 00000000:3B:00.0} → {@code 0000:3b:00.0}). */
    static native String sysfsPciName(String busId);

    /** sem_init(pshared = 1) at {@code offset} inside a direct buffer. */
    static native int semInit(ByteBuffer region, long offset, int value);

    static native int semTimedWait(ByteBuffer region, long offset, long timeoutMillis);

    static native int semPost(ByteBuffer region, long offset);

    static native int semValue(ByteBuffer region, long offset, int[] value);

    /** {sizeof sem_t, alignof sem_t, sizeof size_t, ATOMIC_LONG_LOCK_FREE, ATOMIC_INT_LOCK_FREE, little endian}. */
    static native int[] platformFacts();
}
