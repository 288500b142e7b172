package io.vgpu.state.dra;

import io.vgpu.state.model.RegisteredCapacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the ResourceSlice content of one node (DESIGN.md §8): one device per physical GPU, named
 * {@code gpu-<minor>}, shareable ({@code allowMultipleAllocations}), with three consumable capacities:
 *
 * <pre>
 *  memory  value = the registered MiB × 2^20 bytes   default = value   validRange{min 1Mi, step 1Mi}
 *  cores   value = ⌊100 × coreScaling⌋               default = 0       validRange{0, min(100, value), step 1}
 *  slots   value = 1000                              default = s       validValues [s, 1000], s = ⌊1000/N⌋
 * </pre>
 *
 * (N = split count; at most N ordinary shares fit, an exclusive share asks for 1000; with N &gt; 1000 the
 * share is 1 slot, so at most 1000 shares fit), and the attributes CEL selectors need. Unhealthy and
 * cordoned GPUs get taints, or are left out where the API server drops taints. Devices come in NVML
 * index order, the order kube-scheduler's first-fit allocator tries them.
 *
 * <p>Pure and deterministic: the node agent and the simulator get identical content for identical
 * input. The pool generation is the caller's ({@link SliceContent#atGeneration}).
 */
public final class SliceBuilder {

    /** Capacity: bytes of GPU memory. */
    public static final String MEMORY = "memory";
    /** Capacity: percent of the GPU's SMs (HAMi-core's SM limit; 0 = no limit). */
    public static final String CORES = "cores";
    /** Capacity: the share count rule (1000 per GPU). */
    public static final String SLOTS = "slots";
    /** Slots of one whole GPU. */
    public static final long SLOTS_PER_GPU = 1000;
    /** The standard PCI address attribute. */
    public static final String PCI_BUS_ID = "resource.kubernetes.io/pciBusID";
    /** Taint key of a GPU marked unhealthy (NoSchedule). */
    public static final String TAINT_UNHEALTHY = DraNames.DRIVER + "/unhealthy";
    /** Taint key of a GPU that raised a fatal XID (NoExecute; value: the XID). */
    public static final String TAINT_XID = DraNames.DRIVER + "/xid";
    /** Taint key of a GPU listed in {@code hami.io/device-cordon} (NoSchedule). */
    public static final String TAINT_CORDONED = DraNames.DRIVER + "/cordoned";

    private static final long MIB = 1024L * 1024L;
    private static final int MAX_NAME = 253;
    private static final Pattern NVML_BUS_ID = Pattern.compile("(?:0000)?([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])");

    private SliceBuilder() {
    }

    /**
     * The slice content for {@code input} at pool generation 1, and the GPUs left out with why.
     */
    public static SliceBuild build(SliceInput input) {
        List<SliceGpu> gpus = new ArrayList<>(input.gpus());
        gpus.sort(Comparator.comparingInt(SliceGpu::index).thenComparing(SliceGpu::uuid));
        List<SliceDevice> devices = new ArrayList<>();
        List<SliceBuild.Left> left = new ArrayList<>();
        Set<Integer> minors = new HashSet<>();
        SliceSettings settings = input.settings();
        for (SliceGpu gpu : gpus) {
            Optional<SliceBuild.Left> reason = leftOut(gpu, settings, input, minors);
            if (reason.isPresent()) {
                left.add(reason.get());
                continue;
            }
            minors.add(gpu.minor().getAsInt());
            devices.add(new SliceDevice(DraNames.deviceName(gpu.minor().getAsInt()), attributes(gpu, input),
                    capacity(gpu, settings), true, taints(gpu, input.cordoned())));
        }
        SliceContent content = new SliceContent(DraNames.DRIVER, input.nodeName(),
                new SliceContent.Pool(input.nodeName(), 1, 1), devices);
        return new SliceBuild(content, left);
    }

    private static Optional<SliceBuild.Left> leftOut(SliceGpu gpu, SliceSettings settings, SliceInput input,
                                                    Set<Integer> minors) {
        if (settings.filters(gpu.uuid(), gpu.index())) {
            return left(gpu, SliceBuild.Cause.FILTERED, "left out by filterdevices");
        }
        if (SliceSettings.MODE_MIG.equals(settings.operatingMode())) {
            return left(gpu, SliceBuild.Cause.DYNAMIC_MIG, SliceSettings.MIG_NOT_OFFERED);
        }
        if (gpu.minor().isEmpty()) {
            return left(gpu, SliceBuild.Cause.DEVICE_NAME, "its minor number is unknown, so it has no stable device name");
        }
        if (minors.contains(gpu.minor().getAsInt())) {
            return left(gpu, SliceBuild.Cause.DEVICE_NAME, "another GPU has minor number " + gpu.minor().getAsInt());
        }
        if (gpu.memoryBytes().isEmpty() && settings.preConfiguredMiB() <= 0) {
            return left(gpu, SliceBuild.Cause.MEMORY, "NVML reports no memory and preConfiguredDeviceMemory is 0");
        }
        if (memoryMiB(gpu, settings) < 1) {
            return left(gpu, SliceBuild.Cause.MEMORY, "less than 1 MiB of memory after deviceMemoryScaling");
        }
        if (coresValue(settings) < 1) {
            return left(gpu, SliceBuild.Cause.CORES, "deviceCoreScaling " + settings.coreScaling() + " leaves no cores");
        }
        if (input.taints() == SliceInput.TaintSupport.WITHDRAW && !taints(gpu, input.cordoned()).isEmpty()) {
            return left(gpu, SliceBuild.Cause.WITHDRAWN, (input.cordoned().contains(gpu.uuid()) ? "cordoned" : "unhealthy")
                    + ", and the API server drops device taints: withdrawn");
        }
        return Optional.empty();
    }

    private static Optional<SliceBuild.Left> left(SliceGpu gpu, SliceBuild.Cause cause, String reason) {
        return Optional.of(new SliceBuild.Left(gpu.uuid(), cause, reason));
    }

    private static Map<String, DeviceAttribute> attributes(SliceGpu gpu, SliceInput input) {
        Map<String, DeviceAttribute> a = new LinkedHashMap<>();
        a.put("uuid", DeviceAttribute.of(gpu.uuid()));
        a.put("productName", DeviceAttribute.of(gpu.productName()));
        a.put("index", DeviceAttribute.of(gpu.index()));
        gpu.numa().ifPresent(n -> a.put("numa", DeviceAttribute.of(n)));
        gpu.architecture().ifPresent(v -> a.put("architecture", DeviceAttribute.of(v)));
        gpu.brand().ifPresent(v -> a.put("brand", DeviceAttribute.of(v)));
        gpu.cudaComputeCapability().flatMap(SemanticVersions::normalize)
                .ifPresent(v -> a.put("cudaComputeCapability", DeviceAttribute.version(v)));
        input.driverVersion().flatMap(SemanticVersions::normalize)
                .ifPresent(v -> a.put("driverVersion", DeviceAttribute.version(v)));
        input.cudaDriverVersion().flatMap(SemanticVersions::normalize)
                .ifPresent(v -> a.put("cudaDriverVersion", DeviceAttribute.version(v)));
        a.put("mode", DeviceAttribute.of(input.settings().operatingMode()));
        gpu.pciBusId().flatMap(SliceBuilder::pciBusId).ifPresent(v -> a.put(PCI_BUS_ID, DeviceAttribute.of(v)));
        return a;
    }

    private static Map<String, DeviceCapacity> capacity(SliceGpu gpu, SliceSettings settings) {
        Quantity memory = Quantity.bytes(memoryMiB(gpu, settings) * MIB);
        Quantity mebibyte = Quantity.bytes(MIB);
        long coresValue = coresValue(settings);
        Quantity cores = Quantity.of(coresValue);
        long share = Math.max(1, SLOTS_PER_GPU / settings.splitCount());
        List<Quantity> slotValues = share == SLOTS_PER_GPU ? List.of(Quantity.of(SLOTS_PER_GPU))
                : List.of(Quantity.of(share), Quantity.of(SLOTS_PER_GPU));
        Map<String, DeviceCapacity> c = new LinkedHashMap<>();
        c.put(MEMORY, new DeviceCapacity(memory, Optional.of(DeviceCapacity.RequestPolicy.range(memory,
                new DeviceCapacity.ValidRange(mebibyte, Optional.empty(), Optional.of(mebibyte))))));
        c.put(CORES, new DeviceCapacity(cores, Optional.of(DeviceCapacity.RequestPolicy.range(Quantity.of(0),
                new DeviceCapacity.ValidRange(Quantity.of(0), Optional.of(Quantity.of(Math.min(100, coresValue))),
                        Optional.of(Quantity.of(1)))))));
        c.put(SLOTS, new DeviceCapacity(Quantity.of(SLOTS_PER_GPU),
                Optional.of(DeviceCapacity.RequestPolicy.values(Quantity.of(share), slotValues))));
        return c;
    }

    /** The registered MiB (device-plugin mode's {@code devmem}): installed or pre-configured, scaled. */
    private static long memoryMiB(SliceGpu gpu, SliceSettings settings) {
        int mib = gpu.memoryBytes().isPresent() ? RegisteredCapacity.mib(gpu.memoryBytes().getAsLong())
                : (int) settings.preConfiguredMiB();
        return RegisteredCapacity.scaledMib(mib, settings.memoryScaling());
    }

    /** Device-plugin mode's {@code devcore}: {@code int32(coreScaling * 100)}. */
    private static long coresValue(SliceSettings settings) {
        return RegisteredCapacity.cores(settings.coreScaling());
    }

    /** The taints of a GPU: its health, then its cordon. */
    private static List<DeviceTaint> taints(SliceGpu gpu, Set<String> cordoned) {
        List<DeviceTaint> out = new ArrayList<>();
        switch (gpu.health().status()) {
            case FATAL_XID -> out.add(new DeviceTaint(TAINT_XID, Long.toString(gpu.health().xid()), DeviceTaint.NO_EXECUTE));
            case UNHEALTHY -> out.add(new DeviceTaint(TAINT_UNHEALTHY, "", DeviceTaint.NO_SCHEDULE));
            case HEALTHY -> { }
        }
        if (cordoned.contains(gpu.uuid())) {
            out.add(new DeviceTaint(TAINT_CORDONED, "", DeviceTaint.NO_SCHEDULE));
        }
        return out;
    }

    /**
     * The name of a node's slice: {@code <node>-gpu.vgpu.io}, stable, so that a restarted agent (or a second
     * one during an upgrade) finds it instead of adding another; a node name too long for that keeps its
     * first part and a hash of the whole (object names are at most 253 characters).
     */
    public static String sliceName(String nodeName) {
        String suffix = "-" + DraNames.DRIVER;
        if (nodeName.length() + suffix.length() <= MAX_NAME) {
            return nodeName + suffix;
        }
        String hash = String.format("%08x", nodeName.hashCode());
        String head = nodeName.substring(0, MAX_NAME - suffix.length() - hash.length() - 1).replaceAll("[-.]+$", "");
        return head + "-" + hash + suffix;
    }

    /**
     * The standard {@code resource.kubernetes.io/pciBusID} form {@code dddd:bb:dd.f}, lower case, of the
     * bus id NVML prints with an 8-digit domain ({@code 00000000:3B:00.0} → {@code 0000:3b:00.0}); empty
     * when the text is not a PCI address.
     */
    public static Optional<String> pciBusId(String nvml) {
        var m = NVML_BUS_ID.matcher(nvml == null ? "" : nvml.strip());
        return m.matches() ? Optional.of(m.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }
}
