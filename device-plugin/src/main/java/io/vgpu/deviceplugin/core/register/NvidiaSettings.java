package io.vgpu.deviceplugin.core.register;

/**
 * The {@code nvidia:} values of HAMi's device config that the plugin uses (spec §3.5), after defaults
 * and per-node overrides. Keys as in the YAML.
 *
 * @param resourceCountName         extended resource name, default {@code nvidia.com/gpu}
 * @param deviceSplitCount          fake devices per GPU and the register {@code count}, default 10
 * @param deviceMemoryScaling       register memory factor, default 1
 * @param deviceCoreScaling         register core factor, default 1
 * @param preConfiguredDeviceMemory MiB registered for GPUs whose memory NVML cannot report, 0 = skip them
 * @param libCudaLogLevel           {@code LIBCUDA_LOG_LEVEL}, "" = unset
 * @param enableNumaTopology        advertise NUMA topology to kubelet
 * @param disableCoreLimit          {@code GPU_CORE_UTILIZATION_POLICY=disable} in every container
 */
public record NvidiaSettings(String resourceCountName, int deviceSplitCount, double deviceMemoryScaling,
                             double deviceCoreScaling, long preConfiguredDeviceMemory, String libCudaLogLevel,
                             boolean enableNumaTopology, boolean disableCoreLimit) {

    /** The chart's resource name. */
    public static final String DEFAULT_RESOURCE = "nvidia.com/gpu";
    /** The chart's split count. */
    public static final int DEFAULT_SPLIT_COUNT = 10;

    /** Nulls become defaults. */
    public NvidiaSettings {
        resourceCountName = resourceCountName == null || resourceCountName.isEmpty() ? DEFAULT_RESOURCE : resourceCountName;
        libCudaLogLevel = libCudaLogLevel == null ? "" : libCudaLogLevel;
    }

    /** The defaults a Java plugin applies where HAMi would crash on a missing key. */
    public static NvidiaSettings defaults() {
        return new NvidiaSettings(DEFAULT_RESOURCE, DEFAULT_SPLIT_COUNT, 1.0, 1.0, 0, "", false, false);
    }

    /** The part of the resource name after {@code /} ({@code gpu} for {@code nvidia.com/gpu}). */
    public String resourceShortName() {
        int slash = resourceCountName.indexOf('/');
        return slash >= 0 ? resourceCountName.substring(slash + 1) : resourceCountName;
    }
}
