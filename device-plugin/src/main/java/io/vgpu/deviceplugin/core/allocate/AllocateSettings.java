package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.hook.HookPaths;

import java.util.List;
import java.util.Objects;

/**
 * Everything that shapes an {@code Allocate} answer (spec §2.4, §2.5), fixed for one plugin start.
 *
 * @param resourceName                 extended resource, e.g. {@code nvidia.com/gpu} (appears in errors)
 * @param hookPath                     HAMi's {@code HOOK_PATH}, e.g. {@code /usr/local}; the same path on
 *                                     the host and in the plugin container
 * @param deviceMemoryScaling          {@code deviceMemoryScaling}; above 1 adds {@code CUDA_OVERSUBSCRIBE=true}
 * @param libCudaLogLevel              {@code LIBCUDA_LOG_LEVEL} value; "" omits the variable
 * @param disableCoreLimit             adds {@code GPU_CORE_UTILIZATION_POLICY=disable}
 * @param deviceIdStrategy             how devices are named to the runtime
 * @param deviceListStrategies         how devices are passed to the runtime (at least one)
 * @param enableGetPreferredAllocation follow kubelet's chosen IDs instead of the annotated UUIDs
 * @param operatingMode                {@code hami-core} (HAMi-core env and mounts) or {@code mig}
 * @param libVersion                   version suffix of {@code libvgpu.so.<version>}; "" = look for none
 * @param failRequestsGreaterThanOne   time-slicing rule for the MIG pass-through branch
 * @param cdi                          CDI naming
 * @param imexChannelIds               IMEX channel IDs to expose ({@code NVIDIA_IMEX_CHANNELS})
 * @param gdrcopyEnabled               adds {@code NVIDIA_GDRCOPY=enabled}
 * @param gdsEnabled                   adds {@code NVIDIA_GDS=enabled}
 * @param mofedEnabled                 adds {@code NVIDIA_MOFED=enabled}
 */
public record AllocateSettings(String resourceName, String hookPath, double deviceMemoryScaling,
                               String libCudaLogLevel, boolean disableCoreLimit, DeviceIdStrategy deviceIdStrategy,
                               List<DeviceListStrategy> deviceListStrategies, boolean enableGetPreferredAllocation,
                               String operatingMode, String libVersion, boolean failRequestsGreaterThanOne,
                               CdiSettings cdi, List<String> imexChannelIds, boolean gdrcopyEnabled,
                               boolean gdsEnabled, boolean mofedEnabled) {

    /** HAMi's default operating mode: fake device replicas + HAMi-core limits. */
    public static final String MODE_HAMI_CORE = "hami-core";
    /** Dynamic MIG mode. */
    public static final String MODE_MIG = "mig";

    /** Requires the naming fields; copies lists; nulls become defaults. */
    public AllocateSettings {
        Objects.requireNonNull(resourceName, "resourceName");
        hookPath = hookPath == null ? "" : hookPath;
        libCudaLogLevel = libCudaLogLevel == null ? "" : libCudaLogLevel;
        deviceIdStrategy = deviceIdStrategy == null ? DeviceIdStrategy.UUID : deviceIdStrategy;
        deviceListStrategies = deviceListStrategies == null || deviceListStrategies.isEmpty()
                ? List.of(DeviceListStrategy.ENVVAR) : List.copyOf(deviceListStrategies);
        operatingMode = operatingMode == null ? MODE_HAMI_CORE : operatingMode;
        libVersion = libVersion == null ? "" : libVersion;
        cdi = cdi == null ? CdiSettings.defaults() : cdi;
        imexChannelIds = imexChannelIds == null ? List.of() : List.copyOf(imexChannelIds);
    }

    /** True in dynamic MIG mode (no HAMi-core env or mounts, no alignment to kubelet IDs). */
    public boolean migMode() {
        return MODE_MIG.equals(operatingMode);
    }

    /** The HAMi-core file locations under {@link #hookPath()}. */
    public HookPaths hookPaths() {
        return new HookPaths(hookPath, libVersion);
    }

    /** True when {@code strategy} is configured. */
    public boolean uses(DeviceListStrategy strategy) {
        return deviceListStrategies.contains(strategy);
    }
}
