package io.vgpu.hamicore;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The NVML operations the node side needs: device enumeration and identity, memory, utilisation,
 * topology (PCI bus id → NUMA node), MIG mode and dynamic MIG (GPU/compute instances), XID events
 * for health, and the identity facts a DRA driver publishes (device minor number, architecture, brand, compute capability, driver and CUDA
 * versions).
 *
 * <p><b>Blocking contract.</b> Every method blocks the calling thread for the duration of the
 * native call (tens of microseconds to, for a busy or wedged driver, seconds);
 * {@link XidEventSet#await} blocks up to its timeout. Never call them on a Vert.x event loop: use
 * {@code executeBlocking} or a named worker pool, and a dedicated thread ({@link XidWatcher}) for
 * event waits.
 *
 * <p><b>Errors.</b> Every failure is an {@link NvmlException} carrying NVML's return code and the
 * failing function; a missing library or driver fails at open time
 * ({@link NativeNvml#open(NvmlConfig)}), a missing GPU with the code of the handle lookup.
 *
 * <p><b>Facts an older driver may not know.</b> {@link #minorNumber}, {@link #architecture},
 * {@link #brand}, {@link #cudaComputeCapability}, {@link #driverVersion} and
 * {@link #cudaDriverVersion} answer <em>empty</em> ("unknown") when NVML answers NOT_SUPPORTED or
 * the loaded NVML lacks the function ({@link NvmlException#unsupported()}); so does
 * {@link #migMode} with {@link MigMode#DISABLED}. Such a fact never fails {@link #describe} or
 * {@link #describeDriver}. Every other failure (a lost GPU, a bad index, a closed handle) throws as
 * usual.
 *
 * <p><b>Threading.</b> Implementations are thread-safe. After {@link #close()} every method
 * throws {@link NvmlException} with code {@link NvmlException#UNINITIALIZED}.
 *
 * <p>Implementations: {@link NativeNvml} (the real library through JNI + {@code dlopen}) and
 * {@link FakeNvml} (in memory, for tests of higher layers).
 */
public interface Nvml extends AutoCloseable {

    /** {@code NVML_TOPOLOGY_INTERNAL}: both on one board. */
    int TOPOLOGY_INTERNAL = 0;
    /** {@code NVML_TOPOLOGY_SINGLE}: one PCIe switch between them. */
    int TOPOLOGY_SINGLE = 10;
    /** {@code NVML_TOPOLOGY_MULTIPLE}: several PCIe switches, no host bridge. */
    int TOPOLOGY_MULTIPLE = 20;
    /** {@code NVML_TOPOLOGY_HOSTBRIDGE}: a host bridge. */
    int TOPOLOGY_HOSTBRIDGE = 30;
    /** {@code NVML_TOPOLOGY_NODE} (formerly CPU): the same NUMA node. */
    int TOPOLOGY_NODE = 40;
    /** {@code NVML_TOPOLOGY_SYSTEM}: across the system interconnect (another CPU). */
    int TOPOLOGY_SYSTEM = 50;

    /** Number of GPUs NVML sees ({@code nvmlDeviceGetCount_v2}). */
    int deviceCount();

    /** NVML UUID of the GPU at {@code index} ({@code nvmlDeviceGetUUID}). */
    String uuid(int index);

    /** NVML product name ({@code nvmlDeviceGetName}), e.g. {@code NVIDIA A100-SXM4-40GB}. */
    String name(int index);

    /** Frame-buffer memory ({@code nvmlDeviceGetMemoryInfo}); {@code NOT_SUPPORTED} on unified-memory parts. */
    MemoryInfo memory(int index);

    /** Utilisation rates ({@code nvmlDeviceGetUtilizationRates}). */
    Utilization utilization(int index);

    /** PCI bus id as NVML reports it ({@code nvmlDeviceGetPciInfo_v3}), e.g. {@code 00000000:3B:00.0}. */
    String pciBusId(int index);

    /**
     * NUMA node of the GPU: {@code <sysfs>/bus/pci/devices/<bus id, lower case, 4-digit domain>/numa_node};
     * 0 when the file is missing or holds a negative value (HAMi reports "no NUMA" as 0).
     */
    int numaNode(int index);

    /** MIG mode ({@code nvmlDeviceGetMigMode}); {@link MigMode#DISABLED} for GPUs without MIG support. */
    MigMode migMode(int index);

    /**
     * Minor number of the GPU's device node {@code /dev/nvidia<minor>} ({@code nvmlDeviceGetMinorNumber});
     * empty when unknown. Not always equal to the NVML index.
     */
    OptionalInt minorNumber(int index);

    /**
     * Architecture ({@code nvmlDeviceGetArchitecture}) by name as NVIDIA's go-nvlib spells it (and so
     * as NVIDIA's DRA driver publishes it): {@code Kepler}, {@code Maxwell}, {@code Pascal}, {@code Volta},
     * {@code Turing}, {@code Ampere}, {@code Ada Lovelace}, {@code Hopper}, {@code Blackwell}, {@code Orin};
     * {@code Unknown} for NVML's own "unknown" and for codes this library does not know. Empty when the
     * driver cannot be asked.
     */
    Optional<String> architecture(int index);

    /**
     * Brand ({@code nvmlDeviceGetBrand}) by NVML's name as NVIDIA's go-nvlib spells it: {@code Quadro},
     * {@code Tesla}, {@code NVS}, {@code Grid}, {@code GeForce}, {@code Titan}, {@code NvidiaVApps},
     * {@code NvidiaVPC}, {@code NvidiaVCS}, {@code NvidiaVWS}, {@code NvidiaCloudGaming},
     * {@code QuadroRTX}, {@code NvidiaRTX}, {@code Nvidia}, {@code GeForceRTX}, {@code TitanRTX};
     * {@code Unknown} for NVML's own "unknown" and for codes this library does not know. Empty when
     * the driver cannot be asked.
     */
    Optional<String> brand(int index);

    /** CUDA compute capability ({@code nvmlDeviceGetCudaComputeCapability}), e.g. 9.0; empty when unknown. */
    Optional<MajorMinor> cudaComputeCapability(int index);

    /** Driver version ({@code nvmlSystemGetDriverVersion}) as NVML prints it, e.g. {@code 550.54.15}; empty when unknown. */
    Optional<String> driverVersion();

    /**
     * Newest CUDA version the driver supports ({@code nvmlSystemGetCudaDriverVersion_v2}, 12040 → 12.4);
     * empty when unknown.
     */
    Optional<MajorMinor> cudaDriverVersion();

    /**
     * The MIG GPU-instance profiles this GPU supports, each with its possible placements, in
     * ascending profile id; empty when the GPU (or the driver) has no MIG. Profile ids NVML answers
     * NOT_SUPPORTED or INVALID_ARGUMENT for are left out; any other failure throws.
     */
    List<GpuInstanceProfile> gpuInstanceProfiles(int index);

    /**
     * Turns MIG mode on or off ({@code nvmlDeviceSetMigMode}). The change may only be pending until the
     * GPU is reset: read {@link #migMode} afterwards.
     *
     * @throws NvmlException from the call, or with the activation status NVML reported for the change
     */
    void setMigMode(int index, boolean enabled);

    /**
     * Creates a GPU instance of the profile NVML calls {@code profileId} ({@link GpuInstanceProfile#id()})
     * at exactly {@code placement} ({@code nvmlDeviceCreateGpuInstanceWithPlacement}); never another
     * placement.
     *
     * @return the new GPU instance's id
     */
    int createGpuInstance(int index, int profileId, InstancePlacement placement);

    /**
     * Creates a compute instance of profile {@code computeProfile} (an
     * {@code NVML_COMPUTE_INSTANCE_PROFILE_*} constant, {@link GpuInstanceProfile#computeProfileFor};
     * shared engines) inside GPU instance {@code gpuInstanceId}
     * ({@code nvmlGpuInstanceGetComputeInstanceProfileInfo}, {@code nvmlGpuInstanceCreateComputeInstance}).
     *
     * @return the new compute instance's id
     */
    int createComputeInstance(int index, int gpuInstanceId, int computeProfile);

    /** Destroys one compute instance ({@code nvmlComputeInstanceDestroy}); NOT_FOUND when it is gone. */
    void destroyComputeInstance(int index, int gpuInstanceId, int computeInstanceId);

    /** Destroys one GPU instance ({@code nvmlGpuInstanceDestroy}); IN_USE while it holds compute instances. */
    void destroyGpuInstance(int index, int gpuInstanceId);

    /** Every GPU instance on the GPU with its compute instances, by ascending id; empty without MIG. */
    List<GpuInstance> gpuInstances(int index);

    /** Every MIG device of the GPU (one per compute instance), in NVML's MIG index order; empty without MIG. */
    List<MigDevice> migDevices(int index);

    /**
     * Compute plus graphics processes running on the GPU, or on its MIG devices when MIG is on
     * ({@code nvmlDeviceGetComputeRunningProcesses_v3}, {@code ...GraphicsRunningProcesses_v3}).
     */
    int runningProcessCount(int index);

    /**
     * The closest common ancestor of two GPUs in the PCI/system topology
     * ({@code nvmlDeviceGetTopologyCommonAncestor}): {@link #TOPOLOGY_INTERNAL} (same board),
     * {@link #TOPOLOGY_SINGLE} (one PCIe switch), {@link #TOPOLOGY_MULTIPLE} (several switches),
     * {@link #TOPOLOGY_HOSTBRIDGE}, {@link #TOPOLOGY_NODE} (same NUMA node / CPU), {@link #TOPOLOGY_SYSTEM}
     * (across CPUs); other values are passed on as NVML gives them.
     */
    int topologyCommonAncestor(int index1, int index2);

    /**
     * The GPU's active NVLinks, by link number. Links NVML answers NOT_SUPPORTED or INVALID_ARGUMENT
     * for (or a driver without NVLink) are absent; so are inactive links.
     */
    List<NvLink> nvLinks(int index);

    /**
     * Creates an event set and registers {@code nvmlEventTypeXidCriticalError} for each of the
     * given device indices. A device whose registration fails (including {@code NOT_SUPPORTED})
     * is reported in {@link XidEventSet#failedDevices()} instead of failing the whole call, so the
     * caller can mark just that device unhealthy (HAMi's rule).
     *
     * @throws NvmlException when the event set itself cannot be created
     */
    XidEventSet openXidEvents(List<Integer> deviceIndices);

    /** Releases NVML ({@code nvmlShutdown}); closes event sets still open. Idempotent. */
    @Override
    void close();

    /**
     * Everything {@link GpuInfo} holds for one GPU; propagates the first failing call. Facts the
     * driver does not know are empty in the result, never a failure (see the class contract).
     */
    default GpuInfo describe(int index) {
        MemoryInfo memory = memory(index);
        return new GpuInfo(index, uuid(index), name(index), memory.totalBytes(), memory.usedBytes(),
                pciBusId(index), numaNode(index), migMode(index).enabled(), minorNumber(index),
                architecture(index), brand(index), cudaComputeCapability(index));
    }

    /** The node-wide driver facts; unknown ones are empty, other failures propagate. */
    default DriverInfo describeDriver() {
        return new DriverInfo(driverVersion(), cudaDriverVersion());
    }

    /** {@link #describe(int)} for every GPU, in index order. */
    default List<GpuInfo> describeAll() {
        int count = deviceCount();
        List<GpuInfo> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(describe(i));
        }
        return List.copyOf(all);
    }
}
