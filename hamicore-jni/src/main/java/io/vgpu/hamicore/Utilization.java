package io.vgpu.hamicore;

/**
 * NVML utilisation rates of one GPU over the last sample period ({@code nvmlDeviceGetUtilizationRates}).
 *
 * @param gpuPercent    percent of time a kernel was running, 0..100
 * @param memoryPercent percent of time device memory was read or written, 0..100
 */
public record Utilization(int gpuPercent, int memoryPercent) {
}
