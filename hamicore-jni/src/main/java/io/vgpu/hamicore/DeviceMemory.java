package io.vgpu.hamicore;

/**
 * One process's memory accounting on one device ({@code device_memory_t}), in bytes, read as
 * unsigned 64-bit values. Current HAMi-core writes only {@code contextSize} and {@code dataSize},
 * so in practice {@code total = contextSize + dataSize}.
 *
 * @param contextSize primary-context estimate (type 0)
 * @param moduleSize  module memory (type 1; never written by current HAMi-core)
 * @param dataSize    allocations (type 2; HAMi's Go reader calls it "buffer")
 * @param offset      never written by HAMi-core
 * @param total       sum of everything
 */
public record DeviceMemory(long contextSize, long moduleSize, long dataSize, long offset, long total) {

    /** All zero. */
    public static final DeviceMemory NONE = new DeviceMemory(0, 0, 0, 0, 0);
}
