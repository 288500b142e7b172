package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.List;

/**
 * The metric families of HAMi's {@code vGPUmonitor} (HAMi {@code cmd/vGPUmonitor/metrics.go},
 * spec §4.4): names, help texts and label names exactly as HAMi declares them, plus the legacy
 * names emitted in addition under {@code --legacy-metrics}. Every family is a gauge and, when
 * exported, carries the constant label {@code zone="vGPU"} ({@link #ZONE_LABEL}, {@link #ZONE}).
 */
public final class HamiMetrics {

    /** The constant label HAMi's registry wrapper adds to every monitor series. */
    public static final String ZONE_LABEL = "zone";
    /** Its value. */
    public static final String ZONE = "vGPU";

    private static final String[] HOST = {"node", "device_index", "device_uuid", "device_type"};
    private static final String[] CONTAINER = {"namespace", "pod", "container", "vdevice_index", "device_uuid"};
    private static final String[] LEGACY_HOST = {"nodeid", "deviceidx", "deviceuuid", "devicetype"};
    private static final String[] LEGACY_CONTAINER = {"podnamespace", "podname", "ctrname", "vdeviceid", "deviceuuid"};

    public static final MetricDescriptor HOST_MEMORY_USED = MetricDescriptor.gauge(
            "hami_host_gpu_memory_used_bytes", "GPU device memory usage in bytes", HOST);
    public static final MetricDescriptor HOST_UTILIZATION = MetricDescriptor.gauge(
            "hami_host_gpu_utilization_ratio", "GPU core utilization ratio (0-100)", HOST);
    public static final MetricDescriptor HOST_MEMORY_CONTROLLER_UTILIZATION = MetricDescriptor.gauge(
            "hami_host_gpu_memory_controller_utilization_ratio", "GPU memory controller utilization ratio (0-100)",
            "device_index", "device_uuid", "device_type");
    public static final MetricDescriptor VGPU_MEMORY_USED = MetricDescriptor.gauge(
            "hami_vgpu_memory_used_bytes", "vGPU device memory usage in bytes", CONTAINER);
    public static final MetricDescriptor VGPU_MEMORY_LIMIT = MetricDescriptor.gauge(
            "hami_vgpu_memory_limit_bytes", "vGPU device memory limit in bytes", CONTAINER);
    public static final MetricDescriptor CONTAINER_DEVICE_MEMORY = MetricDescriptor.gauge(
            "hami_container_device_memory_bytes", "Container device memory usage in bytes", CONTAINER);
    public static final MetricDescriptor CONTAINER_DEVICE_UTILIZATION = MetricDescriptor.gauge(
            "hami_container_device_utilization_ratio", "Container device SM utilization ratio", CONTAINER);
    public static final MetricDescriptor CONTAINER_LAST_KERNEL_ELAPSED = MetricDescriptor.gauge(
            "hami_container_last_kernel_elapsed_seconds", "Seconds since last kernel execution in container", CONTAINER);
    public static final MetricDescriptor MIG_DEVICE_INFO = MetricDescriptor.gauge(
            "hami_mig_device_info", "MIG runtime identity for a container allocation",
            "namespace", "pod", "container", "vdevice_index", "device_uuid", "mig_uuid", "profile",
            "gpu_instance_id", "compute_instance_id");
    public static final MetricDescriptor VGPU_MEMORY_CONTEXT = MetricDescriptor.gauge(
            "hami_vgpu_memory_context_bytes", "Container device memory context size in bytes", CONTAINER);
    public static final MetricDescriptor VGPU_MEMORY_MODULE = MetricDescriptor.gauge(
            "hami_vgpu_memory_module_bytes", "Container device memory module size in bytes", CONTAINER);
    public static final MetricDescriptor VGPU_MEMORY_BUFFER = MetricDescriptor.gauge(
            "hami_vgpu_memory_buffer_bytes", "Container device memory buffer size in bytes", CONTAINER);

    public static final MetricDescriptor LEGACY_HOST_MEMORY = MetricDescriptor.gauge(
            "HostGPUMemoryUsage", "GPU device memory usage", LEGACY_HOST);
    public static final MetricDescriptor LEGACY_HOST_CORE_UTILIZATION = MetricDescriptor.gauge(
            "HostCoreUtilization", "GPU core utilization", LEGACY_HOST);
    public static final MetricDescriptor LEGACY_VGPU_MEMORY_USAGE = MetricDescriptor.gauge(
            "vGPU_device_memory_usage_in_bytes", "vGPU device usage", LEGACY_CONTAINER);
    public static final MetricDescriptor LEGACY_VGPU_MEMORY_LIMIT = MetricDescriptor.gauge(
            "vGPU_device_memory_limit_in_bytes", "vGPU device limit", LEGACY_CONTAINER);
    public static final MetricDescriptor LEGACY_DEVICE_MEMORY_DESC = MetricDescriptor.gauge(
            "Device_memory_desc_of_container", "Container device memory description",
            "podnamespace", "podname", "ctrname", "vdeviceid", "deviceuuid", "context", "module", "data", "offset");
    public static final MetricDescriptor LEGACY_DEVICE_UTILIZATION_DESC = MetricDescriptor.gauge(
            "Device_utilization_desc_of_container", "Container device utilization description", LEGACY_CONTAINER);
    public static final MetricDescriptor LEGACY_DEVICE_LAST_KERNEL = MetricDescriptor.gauge(
            "Device_last_kernel_of_container", "Container device last kernel description", LEGACY_CONTAINER);
    public static final MetricDescriptor LEGACY_MIG_INFO = MetricDescriptor.gauge(
            "MigInfo", "Mig device information for container",
            "podnamespace", "podname", "ctrname", "vdeviceid", "deviceuuid", "instanceid");

    /**
     * {@code hami_build_info}: a separate collector in HAMi, so it has no {@code zone} label and is
     * not among {@link #describe(boolean)}.
     */
    public static final MetricDescriptor BUILD_INFO = MetricDescriptor.gauge(
            "hami_build_info", "A metric with a constant '1' value labeled by the build of the vGPU monitor",
            "version", "revision", "build_date", "go_version", "compiler", "platform");

    private HamiMetrics() {
    }

    /**
     * The families HAMi's collector registers ({@code Describe}), in HAMi's order; with
     * {@code legacy} the eight legacy families follow.
     */
    public static List<MetricDescriptor> describe(boolean legacy) {
        List<MetricDescriptor> all = new ArrayList<>(List.of(
                HOST_MEMORY_USED, VGPU_MEMORY_USED, VGPU_MEMORY_LIMIT, HOST_UTILIZATION,
                HOST_MEMORY_CONTROLLER_UTILIZATION, CONTAINER_DEVICE_MEMORY, CONTAINER_DEVICE_UTILIZATION,
                CONTAINER_LAST_KERNEL_ELAPSED, MIG_DEVICE_INFO, VGPU_MEMORY_CONTEXT, VGPU_MEMORY_MODULE,
                VGPU_MEMORY_BUFFER));
        if (legacy) {
            all.addAll(List.of(LEGACY_HOST_MEMORY, LEGACY_HOST_CORE_UTILIZATION, LEGACY_VGPU_MEMORY_USAGE,
                    LEGACY_VGPU_MEMORY_LIMIT, LEGACY_DEVICE_MEMORY_DESC, LEGACY_DEVICE_UTILIZATION_DESC,
                    LEGACY_DEVICE_LAST_KERNEL, LEGACY_MIG_INFO));
        }
        return List.copyOf(all);
    }

    /** A uint64 as Go's {@code float64(v)} converts it (the stored bits are unsigned). */
    static double unsignedToDouble(long value) {
        if (value >= 0) {
            return value;
        }
        // round-half-even like the hardware conversion: halve (keeping the low bit sticky), convert, double
        double half = (double) ((value >>> 1) | (value & 1));
        return half * 2.0;
    }
}
