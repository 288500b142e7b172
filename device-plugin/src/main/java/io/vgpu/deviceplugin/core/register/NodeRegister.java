package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigCapability;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.RegisteredCapacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The node's {@code hami.io/node-nvidia-register} devices from a device scan (HAMi
 * {@code getAPIDevices}, spec §3.2–§3.3), in a STABLE order (NVML index, then UUID) so that the
 * encoded annotation only changes when a device does. Pure and thread-safe.
 *
 * <ul>
 *   <li>{@code devmem} = {@code int32(bytes / 1024 / 1024)} MiB, then, when the memory scaling is not 1
 *       and the mode is not {@code mig}, {@code int32(float64(MiB) * scaling)} (truncation);</li>
 *   <li>{@code devcore} = {@code int32(coreScaling * 100)} in double precision, truncated
 *       (0.29 → 28), or 100 in {@code mig} mode;</li>
 *   <li>{@code type} = the NVML name, prefixed {@code NVIDIA-} unless it starts with {@code NVIDIA};</li>
 *   <li>a GPU without memory information registers {@code preConfiguredMemory} MiB, or is skipped
 *       when that is 0;</li>
 *   <li>{@code health} = the current health (kubelet's string equals {@code healthy} ignoring case);</li>
 *   <li>in {@code mig} mode a GPU carries the {@code migProfiles} it offers and {@code count} = the largest
 *       instance count among them; a GPU that offers none is left out.</li>
 * </ul>
 */
public final class NodeRegister {

    private NodeRegister() {
    }

    /**
     * @param scan     the GPUs found
     * @param health   current health per UUID (missing = the scan's own health)
     * @param settings the register knobs
     */
    public static Result build(List<GpuFacts> scan, Map<String, Boolean> health, RegisterSettings settings) {
        return build(scan, health, settings, Map.of());
    }

    /**
     * @param scan     the GPUs found
     * @param health   current health per UUID (missing = the scan's own health)
     * @param settings the register knobs
     * @param offers   in {@code mig} mode, what each GPU offers (missing = nothing)
     */
    public static Result build(List<GpuFacts> scan, Map<String, Boolean> health, RegisterSettings settings,
                               Map<String, MigCapability> offers) {
        List<GpuFacts> ordered = new ArrayList<>(scan);
        ordered.sort(Comparator.comparingInt(GpuFacts::index).thenComparing(GpuFacts::uuid));
        List<GpuDevice> devices = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> withoutMig = new ArrayList<>();
        boolean mig = AllocateSettings.MODE_MIG.equals(settings.operatingMode());
        for (GpuFacts gpu : ordered) {
            MigCapability offer = offers.getOrDefault(gpu.uuid(), MigCapability.NONE);
            if (mig && !offer.offersAny()) {
                withoutMig.add(gpu.uuid());
                continue;
            }
            int mib;
            if (gpu.memoryTotalBytes().isPresent()) {
                mib = RegisteredCapacity.mib(gpu.memoryTotalBytes().getAsLong());
            } else if (settings.preConfiguredMemory() > 0) {
                mib = (int) settings.preConfiguredMemory();
            } else {
                skipped.add(gpu.uuid());
                continue;
            }
            int devmem = mig ? mib : RegisteredCapacity.scaledMib(mib, settings.memoryScaling());
            boolean healthy = health.getOrDefault(gpu.uuid(), gpu.healthy());
            devices.add(new GpuDevice(gpu.uuid(), gpu.index(), mig ? offer.count() : settings.splitCount(), devmem,
                    mig ? 100 : devcore(settings.coreScaling()), registeredType(gpu.name()),
                    gpu.numa().orElse(0) < 0 ? 0 : gpu.numa().orElse(0), settings.operatingMode(),
                    mig ? offer.profiles() : List.of(), healthy));
        }
        return new Result(devices, skipped, withoutMig);
    }

    /** {@code int32(deviceCoreScaling * 100)}: IEEE-754 double product, truncated toward zero. */
    public static int devcore(double coreScaling) {
        return RegisteredCapacity.cores(coreScaling);
    }

    /** HAMi's {@code health} field: kubelet's health string equals {@code healthy} ignoring case. */
    public static boolean healthy(String kubeletHealth) {
        return "healthy".equalsIgnoreCase(kubeletHealth);
    }

    /** The NVML name, prefixed {@code NVIDIA-} unless it already starts with {@code NVIDIA}. */
    public static String registeredType(String nvmlName) {
        return nvmlName.startsWith("NVIDIA") ? nvmlName : "NVIDIA-" + nvmlName;
    }

    /**
     * One scan's registration.
     *
     * @param devices    the devices to register, stable order
     * @param skipped    UUIDs left out (no memory information and no pre-configured memory)
     * @param withoutMig UUIDs left out in {@code mig} mode because they offer no allowed MIG profile
     */
    public record Result(List<GpuDevice> devices, List<String> skipped, List<String> withoutMig) {

        /** Copies the lists. */
        public Result {
            devices = List.copyOf(devices);
            skipped = List.copyOf(skipped);
            withoutMig = List.copyOf(withoutMig);
        }
    }
}
