package io.vgpu.deviceplugin.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.vgpu.deviceplugin.core.monitor.Collected;
import io.vgpu.deviceplugin.core.monitor.HostGpuMetrics;
import io.vgpu.hamicore.MemoryInfo;
import io.vgpu.hamicore.Nvml;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.hamicore.Utilization;

/**
 * Host GPU series from NVML, with HAMi's error rules ({@code collectGPUInfo} and the per-device
 * functions of {@code cmd/vGPUmonitor/metrics.go}, spec §4.3 step 1):
 * <ul>
 *   <li>no device count: no host series, one problem;</li>
 *   <li>per device, {@link #memory} then, unless it failed, {@link #utilization}; an error skips the
 *       rest of that device only (HAMi#1089), and memory {@code NOT_SUPPORTED} (unified-memory
 *       parts) silently skips just the memory series;</li>
 *   <li>an empty node name is an error of each function, checked where HAMi checks it.</li>
 * </ul>
 * Every method makes blocking NVML calls: run it on a worker thread. HAMi calls
 * {@code nvmlInit}/{@code nvmlShutdown} around each scrape; here the process-wide {@link Nvml}
 * handle stays open and is shared with the device plugin.
 */
public final class HostGpuCollector {

    private final Nvml nvml;
    private final String nodeName;
    private final boolean legacy;

    /**
     * @param nvml     an open NVML
     * @param nodeName the {@code node} label; empty makes every function fail as in HAMi
     * @param legacy   also emit {@code HostGPUMemoryUsage} and {@code HostCoreUtilization}
     */
    public HostGpuCollector(Nvml nvml, String nodeName, boolean legacy) {
        this.nvml = Objects.requireNonNull(nvml, "nvml");
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        this.legacy = legacy;
    }

    /** Every GPU NVML sees, in index order. */
    public Collected collect() {
        int count;
        try {
            count = nvml.deviceCount();
        } catch (NvmlException e) {
            return Collected.problem("nvml GetDeviceCount err: " + e.getMessage());
        }
        Collected all = Collected.NONE;
        for (int index = 0; index < count; index++) {
            Collected memory = memory(index);
            all = all.plus(memory);
            if (memory.problems().isEmpty()) {
                all = all.plus(utilization(index));
            }
        }
        return all;
    }

    /** {@code collectGPUMemoryMetrics} for one GPU: used bytes (and the legacy twin). */
    public Collected memory(int index) {
        MemoryInfo memory;
        try {
            memory = nvml.memory(index);
        } catch (NvmlException e) {
            if (e.returnCode() == NvmlException.NOT_SUPPORTED) {
                return Collected.NONE;
            }
            return failed(index, "nvml get memory error ret=" + e.returnCode() + " (" + e.getMessage() + ")");
        }
        List<String> identity = new ArrayList<>(2);
        Collected error = identity(index, identity);
        if (error != null) {
            return error;
        }
        if (nodeName.isEmpty()) {
            return failed(index, HostGpuMetrics.NODE_NAME_MISSING);
        }
        return new Collected(HostGpuMetrics.memory(nodeName, index, identity.get(0), identity.get(1),
                memory.usedBytes(), legacy), List.of());
    }

    /** {@code collectGPUUtilizationMetrics} for one GPU: GPU and memory-controller utilisation. */
    public Collected utilization(int index) {
        if (nodeName.isEmpty()) {
            return failed(index, HostGpuMetrics.NODE_NAME_MISSING);
        }
        Utilization rates;
        try {
            rates = nvml.utilization(index);
        } catch (NvmlException e) {
            return failed(index, "nvml GetUtilizationRates err: " + e.getMessage());
        }
        List<String> identity = new ArrayList<>(2);
        Collected error = identity(index, identity);
        if (error != null) {
            return error;
        }
        return new Collected(HostGpuMetrics.utilization(nodeName, index, identity.get(0), identity.get(1),
                rates.gpuPercent(), rates.memoryPercent(), legacy), List.of());
    }

    /** Reads UUID then name into {@code out}; returns the failure, or null. */
    private Collected identity(int index, List<String> out) {
        try {
            out.add(nvml.uuid(index));
        } catch (NvmlException e) {
            return failed(index, "nvml GetUUID err: " + e.getMessage());
        }
        try {
            out.add(nvml.name(index));
        } catch (NvmlException e) {
            return failed(index, "nvml GetName err: " + e.getMessage());
        }
        return null;
    }

    private static Collected failed(int index, String message) {
        return Collected.problem("GPU device " + index + ": " + message);
    }
}
