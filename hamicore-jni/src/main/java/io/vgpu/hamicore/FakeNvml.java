package io.vgpu.hamicore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An in-memory {@link Nvml} for tests of the layers above (device plugin, monitor): a fixed list
 * of GPUs, adjustable memory use and utilisation, injectable NVML failures and XID events. Same
 * contract as {@link NativeNvml}, including the error codes and function names it reports, so
 * code tested against it behaves the same against the real library. Thread-safe.
 *
 * <p>The identity facts come from each {@link GpuInfo} (its empty facts are unknown, as from an
 * older driver) and from {@link #setDriver(DriverInfo)} (default {@link DriverInfo#UNKNOWN}). An
 * injected NOT_SUPPORTED or FUNCTION_NOT_FOUND on a fact's function makes that fact empty, as
 * {@link NativeNvml} does.
 *
 * <p>MIG: a GPU given profiles with {@link #setMigProfiles} can be switched to MIG mode and partitioned
 * into GPU and compute instances, with the rules (placements, overlaps, instance counts, instances in
 * use) and error codes of a driver; {@link #a100Profiles()} and {@link #h100Profiles()} are realistic
 * profile sets. Every MIG call honours {@link #failOn} under its NVML function name.
 */
public final class FakeNvml implements Nvml {

    private final List<GpuInfo> gpus;
    private final Map<Integer, Long> memoryUsed = new ConcurrentHashMap<>();
    private final Map<Integer, Utilization> utilization = new ConcurrentHashMap<>();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final List<FakeEventSet> eventSets = new CopyOnWriteArrayList<>();
    private final Map<Integer, FakeMig> mig = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> processes = new ConcurrentHashMap<>();
    private final Map<List<Integer>, Integer> ancestors = new ConcurrentHashMap<>();
    private final Map<Integer, List<NvLink>> links = new ConcurrentHashMap<>();
    private volatile DriverInfo driver = DriverInfo.UNKNOWN;
    private volatile boolean closed;

    private FakeNvml(List<GpuInfo> gpus) {
        List<GpuInfo> indexed = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            // the list position is the NVML index, whatever the record says
            indexed.add(gpus.get(i).atIndex(i));
        }
        this.gpus = List.copyOf(indexed);
    }

    /** A fake NVML that enumerates {@code gpus} in list order (index = position). */
    public static FakeNvml withGpus(List<GpuInfo> gpus) {
        return new FakeNvml(gpus);
    }

    /** See {@link #withGpus(List)}. */
    public static FakeNvml withGpus(GpuInfo... gpus) {
        return new FakeNvml(List.of(gpus));
    }

    /** Sets the used memory reported for {@code index} from now on. */
    public void setMemoryUsed(int index, long bytes) {
        gpu(index, "nvmlDeviceGetMemoryInfo");
        memoryUsed.put(index, bytes);
    }

    /** Sets the utilisation reported for {@code index} from now on (default 0/0). */
    public void setUtilization(int index, Utilization rates) {
        gpu(index, "nvmlDeviceGetUtilizationRates");
        utilization.put(index, rates);
    }

    /** Sets the driver facts reported from now on ({@link #driverVersion()}, {@link #cudaDriverVersion()}). */
    public void setDriver(DriverInfo info) {
        driver = info == null ? DriverInfo.UNKNOWN : info;
    }

    /**
     * Makes {@code function} fail with {@code returnCode} for device {@code index} (-1: for every
     * device, and for calls without a device such as {@code nvmlDeviceGetCount_v2},
     * {@code nvmlSystemGetDriverVersion}, {@code nvmlEventSetCreate} and {@code nvmlEventSetWait_v2}). Function names are NVML's, as
     * listed on the {@link Nvml} methods.
     */
    public void failOn(String function, int index, int returnCode) {
        failures.put(function + "#" + index, returnCode);
    }

    /**
     * Makes the GPU at {@code index} MIG-capable with these profiles; MIG starts in the mode its
     * {@link GpuInfo#migEnabled()} says, without instances.
     */
    public void setMigProfiles(int index, List<GpuInstanceProfile> profiles) {
        GpuInfo g = gpu(index, "nvmlDeviceGetMigMode");
        mig.put(index, new FakeMig(g.uuid(), profiles, g.migEnabled()));
    }

    /** From now on enabling MIG on {@code index} stays pending (as when the GPU needs a reset). */
    public void setMigEnableNeedsReset(int index, boolean needsReset) {
        synchronized (mig) {
            migOf(index, "nvmlDeviceSetMigMode").enableNeedsReset(needsReset);
        }
    }

    /** Sets how many processes run on {@code index} (compute plus graphics; default 0). */
    public void setRunningProcesses(int index, int count) {
        gpu(index, "nvmlDeviceGetComputeRunningProcesses_v3");
        processes.put(index, count);
    }

    /**
     * Sets the common ancestor of GPUs {@code i} and {@code j} in both directions (default
     * {@link Nvml#TOPOLOGY_NODE}); {@link #setCommonAncestorOneWay} sets one direction only.
     */
    public void setCommonAncestor(int i, int j, int level) {
        setCommonAncestorOneWay(i, j, level);
        setCommonAncestorOneWay(j, i, level);
    }

    /** Sets what {@code topologyCommonAncestor(i, j)} answers, leaving {@code (j, i)} as it is. */
    public void setCommonAncestorOneWay(int i, int j, int level) {
        ancestors.put(List.of(i, j), level);
    }

    /** Sets the active NVLinks of GPU {@code index} (default none). */
    public void setNvLinks(int index, List<NvLink> active) {
        links.put(index, List.copyOf(active));
    }

    /** The GPU-instance profiles of an A100-SXM4-40GB as its driver lists them (7 slices, 8 memory slices). */
    public static List<GpuInstanceProfile> a100Profiles() {
        return FakeMig.A100_PROFILES;
    }

    /** The GPU-instance profiles of an H100 80GB HBM3. */
    public static List<GpuInstanceProfile> h100Profiles() {
        return FakeMig.H100_PROFILES;
    }

    /** Removes every injected failure. */
    public void clearFailures() {
        failures.clear();
    }

    /**
     * Delivers {@code event} to every open event set that registered its device (by UUID); an
     * event without a device UUID goes to every open set.
     */
    public void injectXid(XidEvent event) {
        for (FakeEventSet set : eventSets) {
            set.offer(event);
        }
    }

    /** True once {@link #close()} ran. */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public int deviceCount() {
        check("nvmlDeviceGetCount_v2", -1);
        return gpus.size();
    }

    @Override
    public String uuid(int index) {
        return gpu(index, "nvmlDeviceGetUUID").uuid();
    }

    @Override
    public String name(int index) {
        return gpu(index, "nvmlDeviceGetName").name();
    }

    @Override
    public MemoryInfo memory(int index) {
        GpuInfo g = gpu(index, "nvmlDeviceGetMemoryInfo");
        long used = memoryUsed.getOrDefault(index, g.memoryUsedBytes());
        return new MemoryInfo(g.memoryTotalBytes(), g.memoryTotalBytes() - used, used);
    }

    @Override
    public Utilization utilization(int index) {
        gpu(index, "nvmlDeviceGetUtilizationRates");
        return utilization.getOrDefault(index, new Utilization(0, 0));
    }

    @Override
    public String pciBusId(int index) {
        return gpu(index, "nvmlDeviceGetPciInfo_v3").pciBusId();
    }

    @Override
    public int numaNode(int index) {
        return gpu(index, "nvmlDeviceGetPciInfo_v3").numaNode();
    }

    @Override
    public MigMode migMode(int index) {
        // GPUs (and drivers) without MIG answer NOT_SUPPORTED: MIG is off, as NativeNvml reports it
        return NvmlOptional.unlessUnsupported(() -> {
            boolean on = gpu(index, "nvmlDeviceGetMigMode").migEnabled();
            synchronized (mig) {
                FakeMig m = mig.get(index);
                return Optional.of(m != null ? m.mode() : new MigMode(on, on));
            }
        }).orElse(MigMode.DISABLED);
    }

    @Override
    public List<GpuInstanceProfile> gpuInstanceProfiles(int index) {
        gpu(index, "nvmlDeviceGetGpuInstanceProfileInfo");
        check("nvmlDeviceGetGpuInstancePossiblePlacements_v2", index);
        FakeMig m = mig.get(index);
        return m == null ? List.of() : m.profiles();
    }

    @Override
    public void setMigMode(int index, boolean enabled) {
        synchronized (mig) {
            migOf(index, "nvmlDeviceSetMigMode").setMode(enabled);
        }
    }

    @Override
    public int createGpuInstance(int index, int profileId, InstancePlacement placement) {
        synchronized (mig) {
            return migOf(index, "nvmlDeviceCreateGpuInstanceWithPlacement").createGi(profileId, placement);
        }
    }

    @Override
    public int createComputeInstance(int index, int gpuInstanceId, int computeProfileId) {
        synchronized (mig) {
            return migOf(index, "nvmlGpuInstanceCreateComputeInstance").createCi(gpuInstanceId, computeProfileId);
        }
    }

    @Override
    public void destroyComputeInstance(int index, int gpuInstanceId, int computeInstanceId) {
        synchronized (mig) {
            migOf(index, "nvmlComputeInstanceDestroy").destroyCi(gpuInstanceId, computeInstanceId);
        }
    }

    @Override
    public void destroyGpuInstance(int index, int gpuInstanceId) {
        synchronized (mig) {
            migOf(index, "nvmlGpuInstanceDestroy").destroyGi(gpuInstanceId);
        }
    }

    @Override
    public List<GpuInstance> gpuInstances(int index) {
        gpu(index, "nvmlDeviceGetGpuInstances");
        synchronized (mig) {
            FakeMig m = mig.get(index);
            return m == null ? List.of() : m.instances();
        }
    }

    @Override
    public List<MigDevice> migDevices(int index) {
        gpu(index, "nvmlDeviceGetMigDeviceHandleByIndex");
        synchronized (mig) {
            FakeMig m = mig.get(index);
            return m == null || !m.mode().enabled() ? List.of() : m.devices();
        }
    }

    @Override
    public int runningProcessCount(int index) {
        gpu(index, "nvmlDeviceGetComputeRunningProcesses_v3");
        return processes.getOrDefault(index, 0);
    }

    @Override
    public OptionalInt minorNumber(int index) {
        return NvmlOptional.unlessUnsupportedInt(() -> gpu(index, "nvmlDeviceGetMinorNumber").minorNumber());
    }

    @Override
    public Optional<String> architecture(int index) {
        return NvmlOptional.unlessUnsupported(() -> gpu(index, "nvmlDeviceGetArchitecture").architecture());
    }

    @Override
    public Optional<String> brand(int index) {
        return NvmlOptional.unlessUnsupported(() -> gpu(index, "nvmlDeviceGetBrand").brand());
    }

    @Override
    public Optional<MajorMinor> cudaComputeCapability(int index) {
        return NvmlOptional.unlessUnsupported(() -> gpu(index, "nvmlDeviceGetCudaComputeCapability").cudaComputeCapability());
    }

    @Override
    public Optional<String> driverVersion() {
        return NvmlOptional.unlessUnsupported(() -> {
            check("nvmlSystemGetDriverVersion", -1);
            return driver.version();
        });
    }

    @Override
    public Optional<MajorMinor> cudaDriverVersion() {
        return NvmlOptional.unlessUnsupported(() -> {
            check("nvmlSystemGetCudaDriverVersion_v2", -1);
            return driver.cudaVersion();
        });
    }

    @Override
    public int topologyCommonAncestor(int index1, int index2) {
        // failures are injected by the first device, as the call is made on its handle
        gpu(index1, "nvmlDeviceGetTopologyCommonAncestor");
        gpu(index2, "nvmlDeviceGetHandleByIndex_v2");
        return ancestors.getOrDefault(List.of(index1, index2), TOPOLOGY_NODE);
    }

    @Override
    public List<NvLink> nvLinks(int index) {
        return NvmlOptional.unlessUnsupported(() -> {
            gpu(index, "nvmlDeviceGetNvLinkState");
            return Optional.of(links.getOrDefault(index, List.of()));
        }).orElse(List.of());
    }

    @Override
    public XidEventSet openXidEvents(List<Integer> deviceIndices) {
        check("nvmlEventSetCreate", -1);
        List<Integer> registered = new ArrayList<>();
        Map<Integer, NvmlException> failed = new LinkedHashMap<>();
        for (int index : deviceIndices) {
            try {
                gpu(index, "nvmlDeviceRegisterEvents");
                registered.add(index);
            } catch (NvmlException e) {
                failed.put(index, e);
            }
        }
        List<String> uuids = registered.stream().map(i -> gpus.get(i).uuid()).toList();
        FakeEventSet set = new FakeEventSet(registered, failed, uuids);
        eventSets.add(set);
        return set;
    }

    @Override
    public void close() {
        closed = true;
        eventSets.forEach(FakeEventSet::close);
    }

    private GpuInfo gpu(int index, String function) {
        check(function, index);
        if (index < 0 || index >= gpus.size()) {
            throw new NvmlException(NvmlException.INVALID_ARGUMENT, "nvmlDeviceGetHandleByIndex_v2",
                    "no GPU with index " + index + " (" + gpus.size() + " present)");
        }
        return gpus.get(index);
    }

    /** The MIG state of a MIG-capable GPU; NOT_SUPPORTED for the others (as NVML answers). */
    private FakeMig migOf(int index, String function) {
        gpu(index, function);
        FakeMig m = mig.get(index);
        if (m == null) {
            throw new NvmlException(NvmlException.NOT_SUPPORTED, function, "GPU " + index + " has no MIG");
        }
        return m;
    }

    private void check(String function, int index) {
        if (closed) {
            throw new NvmlException(NvmlException.UNINITIALIZED, "nvmlShutdown", "this FakeNvml is closed");
        }
        Integer code = failures.get(function + "#" + index);
        if (code == null) {
            code = failures.get(function + "#-1");
        }
        if (code != null) {
            throw new NvmlException(code, function, "injected by FakeNvml");
        }
    }

    private final class FakeEventSet implements XidEventSet {
        private final List<Integer> registered;
        private final Map<Integer, NvmlException> failed;
        private final List<String> uuids;
        private final BlockingQueue<XidEvent> pending = new LinkedBlockingQueue<>();
        private volatile boolean open = true;

        FakeEventSet(List<Integer> registered, Map<Integer, NvmlException> failed, List<String> uuids) {
            this.registered = List.copyOf(registered);
            this.failed = Map.copyOf(failed);
            this.uuids = List.copyOf(uuids);
        }

        void offer(XidEvent event) {
            if (open && (!event.hasDevice() || uuids.contains(event.deviceUuid()))) {
                pending.add(event);
            }
        }

        @Override
        public List<Integer> registeredDevices() {
            return registered;
        }

        @Override
        public Map<Integer, NvmlException> failedDevices() {
            return failed;
        }

        @Override
        public Optional<XidEvent> await(Duration timeout) {
            if (!open) {
                throw new NvmlException(NvmlException.UNINITIALIZED, "nvmlEventSetFree", "this event set is closed");
            }
            check("nvmlEventSetWait_v2", -1);
            try {
                return Optional.ofNullable(pending.poll(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }

        @Override
        public void close() {
            open = false;
            eventSets.remove(this);
        }
    }
}
