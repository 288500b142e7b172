package io.vgpu.hamicore;

/**
 * NVML frame-buffer memory of one GPU ({@code nvmlDeviceGetMemoryInfo}), in bytes. Values are
 * unsigned 64-bit in NVML; real GPUs stay far below {@link Long#MAX_VALUE}.
 *
 * @param totalBytes installed memory
 * @param freeBytes  unallocated memory
 * @param usedBytes  allocated memory
 */
public record MemoryInfo(long totalBytes, long freeBytes, long usedBytes) {
}
