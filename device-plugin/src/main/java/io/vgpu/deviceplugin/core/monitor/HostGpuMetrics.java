package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.List;

import static io.vgpu.deviceplugin.core.monitor.HamiMetrics.unsignedToDouble;

/**
 * Host GPU series (spec §4.4), one set per physical GPU: labels node, {@code device_index} (NVML
 * index), {@code device_uuid} (NVML UUID) and {@code device_type} = {@code "NVIDIA-" + NVML name};
 * the memory-controller family has no node label. The NVML reads and their error rules live with
 * the NVML collector; these are the series it emits, in HAMi's order.
 */
public final class HostGpuMetrics {

    /** HAMi's error text when the node name is unset (the Go code reads {@code NODE_NAME}). */
    public static final String NODE_NAME_MISSING = "node name environment variable NODE_NAME is not set";

    private HostGpuMetrics() {
    }

    /** {@code "NVIDIA-" + name}. */
    public static String deviceType(String nvmlName) {
        return "NVIDIA-" + nvmlName;
    }

    /** {@code collectGPUMemoryMetrics}: used memory (bytes, unsigned), then its legacy twin. */
    public static List<MetricSeries> memory(String node, int index, String uuid, String nvmlName, long usedBytes,
                                            boolean legacy) {
        List<MetricSeries> out = new ArrayList<>(2);
        String[] labels = {node, Integer.toString(index), uuid, deviceType(nvmlName)};
        out.add(HamiMetrics.HOST_MEMORY_USED.series(unsignedToDouble(usedBytes), labels));
        if (legacy) {
            out.add(HamiMetrics.LEGACY_HOST_MEMORY.series(unsignedToDouble(usedBytes), labels));
        }
        return out;
    }

    /**
     * {@code collectGPUUtilizationMetrics}: GPU utilisation, its legacy twin, then the memory
     * controller utilisation (percent, 0..100).
     */
    public static List<MetricSeries> utilization(String node, int index, String uuid, String nvmlName,
                                                 int gpuPercent, int memoryPercent, boolean legacy) {
        List<MetricSeries> out = new ArrayList<>(3);
        String deviceIndex = Integer.toString(index);
        String type = deviceType(nvmlName);
        // NVML reports unsigned ints
        double gpu = Integer.toUnsignedLong(gpuPercent);
        out.add(HamiMetrics.HOST_UTILIZATION.series(gpu, node, deviceIndex, uuid, type));
        if (legacy) {
            out.add(HamiMetrics.LEGACY_HOST_CORE_UTILIZATION.series(gpu, node, deviceIndex, uuid, type));
        }
        out.add(HamiMetrics.HOST_MEMORY_CONTROLLER_UTILIZATION.series(Integer.toUnsignedLong(memoryPercent),
                deviceIndex, uuid, type));
        return out;
    }
}
