package io.vgpu.hamicore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * {@link Nvml} over the real NVML: the JNI library ({@link NativeLibrary}) {@code dlopen}s NVML at
 * runtime, so nothing links against the driver and a node without one gets a clean
 * {@link NvmlException} from {@link #open}, not a link error.
 *
 * <p>All methods block (see {@link Nvml}). Calls may run concurrently; {@link #close()} waits for
 * calls in flight (at most one event-wait timeout) and then shuts NVML down, so a handle is never
 * used after it is freed.
 */
public final class NativeNvml implements Nvml {

    private final long handle;
    private final NvmlConfig config;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final Set<NativeXidEventSet> openSets = ConcurrentHashMap.newKeySet();
    private boolean closed;

    private NativeNvml(long handle, NvmlConfig config) {
        this.handle = handle;
        this.config = config;
    }

    /**
     * Loads the JNI library if needed, then {@code dlopen}s NVML and runs {@code nvmlInit_v2}.
     *
     * @throws NativeLoadException when the JNI library cannot be loaded
     * @throws NvmlException       {@code LIBRARY_NOT_FOUND}/{@code dlopen} when NVML is absent,
     *                             {@code FUNCTION_NOT_FOUND} when the file is not NVML, or the
     *                             code of {@code nvmlInit_v2} (e.g. {@code DRIVER_NOT_LOADED})
     */
    public static NativeNvml open(NvmlConfig config) {
        NativeLibrary.load();
        return new NativeNvml(NativeBridge.nvmlOpen(config.libraryPath()), config);
    }

    /** {@link #open(NvmlConfig)} with {@link NvmlConfig#defaults()}. */
    public static NativeNvml open() {
        return open(NvmlConfig.defaults());
    }

    /** The configuration this instance was opened with. */
    public NvmlConfig config() {
        return config;
    }

    @Override
    public int deviceCount() {
        return call(() -> NativeBridge.deviceCount(handle));
    }

    @Override
    public String uuid(int index) {
        return call(() -> text(NativeBridge.deviceUuid(handle, index)));
    }

    @Override
    public String name(int index) {
        return call(() -> text(NativeBridge.deviceName(handle, index)));
    }

    @Override
    public MemoryInfo memory(int index) {
        return call(() -> {
            long[] m = NativeBridge.deviceMemory(handle, index);
            return new MemoryInfo(m[0], m[1], m[2]);
        });
    }

    @Override
    public Utilization utilization(int index) {
        return call(() -> {
            int[] u = NativeBridge.deviceUtilization(handle, index);
            return new Utilization(u[0], u[1]);
        });
    }

    @Override
    public String pciBusId(int index) {
        return call(() -> text(NativeBridge.devicePciBusId(handle, index)));
    }

    @Override
    public int numaNode(int index) {
        String busId = pciBusId(index);
        return NativeBridge.numaNode(config.sysfsRoot().toString(), busId);
    }

    @Override
    public MigMode migMode(int index) {
        // GPUs (and drivers) without MIG answer NOT_SUPPORTED / lack the symbol: MIG is off
        return call(() -> NvmlOptional.unlessUnsupported(() -> {
            int[] mode = NativeBridge.deviceMigMode(handle, index);
            return Optional.of(new MigMode(mode[0] != 0, mode[1] != 0));
        })).orElse(MigMode.DISABLED);
    }

    @Override
    public OptionalInt minorNumber(int index) {
        return call(() -> NvmlOptional.unlessUnsupportedInt(
                () -> OptionalInt.of(NativeBridge.deviceMinorNumber(handle, index))));
    }

    @Override
    public Optional<String> architecture(int index) {
        return call(() -> NvmlOptional.unlessUnsupported(
                () -> Optional.of(NativeBridge.architectureName(NativeBridge.deviceArchitecture(handle, index)))));
    }

    @Override
    public Optional<String> brand(int index) {
        return call(() -> NvmlOptional.unlessUnsupported(
                () -> Optional.of(NativeBridge.brandName(NativeBridge.deviceBrand(handle, index)))));
    }

    @Override
    public Optional<MajorMinor> cudaComputeCapability(int index) {
        return call(() -> NvmlOptional.unlessUnsupported(() -> {
            int[] cc = NativeBridge.deviceCudaComputeCapability(handle, index);
            return Optional.of(new MajorMinor(cc[0], cc[1]));
        }));
    }

    @Override
    public Optional<String> driverVersion() {
        return call(() -> NvmlOptional.unlessUnsupported(
                () -> Optional.of(text(NativeBridge.systemDriverVersion(handle)))));
    }

    @Override
    public Optional<MajorMinor> cudaDriverVersion() {
        return call(() -> NvmlOptional.unlessUnsupported(
                () -> Optional.of(MajorMinor.fromCudaVersion(NativeBridge.systemCudaDriverVersion(handle)))));
    }

    @Override
    public List<GpuInstanceProfile> gpuInstanceProfiles(int index) {
        return call(() -> NativeMig.profiles(handle, index));
    }

    @Override
    public void setMigMode(int index, boolean enabled) {
        call(() -> {
            NativeBridge.setMigMode(handle, index, enabled);
            return null;
        });
    }

    @Override
    public int createGpuInstance(int index, int profileId, InstancePlacement placement) {
        return call(() -> NativeBridge.createGpuInstance(handle, index, profileId, placement.start(), placement.size()));
    }

    @Override
    public int createComputeInstance(int index, int gpuInstanceId, int computeProfile) {
        return call(() -> NativeBridge.createComputeInstance(handle, index, gpuInstanceId, computeProfile));
    }

    @Override
    public void destroyComputeInstance(int index, int gpuInstanceId, int computeInstanceId) {
        call(() -> {
            NativeBridge.destroyComputeInstance(handle, index, gpuInstanceId, computeInstanceId);
            return null;
        });
    }

    @Override
    public void destroyGpuInstance(int index, int gpuInstanceId) {
        call(() -> {
            NativeBridge.destroyGpuInstance(handle, index, gpuInstanceId);
            return null;
        });
    }

    @Override
    public List<GpuInstance> gpuInstances(int index) {
        return migMode(index).enabled() ? call(() -> NativeMig.instances(handle, index)) : List.of();
    }

    @Override
    public List<MigDevice> migDevices(int index) {
        return migMode(index).enabled() ? call(() -> NativeMig.devices(handle, index)) : List.of();
    }

    @Override
    public int runningProcessCount(int index) {
        return migMode(index).enabled()
                ? call(() -> NativeMig.migProcesses(handle, index))
                : call(() -> NativeBridge.processCount(handle, index, -1));
    }

    @Override
    public int topologyCommonAncestor(int index1, int index2) {
        return call(() -> NativeBridge.topologyCommonAncestor(handle, index1, index2));
    }

    @Override
    public List<NvLink> nvLinks(int index) {
        return call(() -> NativeMig.nvLinks(handle, index));
    }

    @Override
    public XidEventSet openXidEvents(List<Integer> deviceIndices) {
        return call(() -> {
            long set = NativeBridge.eventSetCreate(handle);
            List<Integer> registered = new ArrayList<>();
            Map<Integer, NvmlException> failed = new LinkedHashMap<>();
            for (int index : deviceIndices) {
                try {
                    NativeBridge.eventRegisterXid(handle, set, index);
                    registered.add(index);
                } catch (NvmlException e) {
                    failed.put(index, e);
                }
            }
            NativeXidEventSet events = new NativeXidEventSet(this, set, registered, failed);
            openSets.add(events);
            return events;
        });
    }

    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (NativeXidEventSet set : openSets) {
                try {
                    set.freeLocked();
                } catch (NvmlException ignored) {
                    // nvmlShutdown below releases whatever the failed free left behind
                }
            }
            openSets.clear();
            NativeBridge.nvmlClose(handle);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Runs a native call under the read lock, so close cannot free the handle meanwhile. */
    <T> T call(Supplier<T> nativeCall) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new NvmlException(NvmlException.UNINITIALIZED, "nvmlShutdown", "this NativeNvml is closed");
            }
            return nativeCall.get();
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    long handle() {
        return handle;
    }

    void forget(NativeXidEventSet set) {
        openSets.remove(set);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
