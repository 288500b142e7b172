package io.vgpu.state.dra;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the slice builder needs of one physical GPU. The node agent fills it from NVML (or its fake GPU
 * file); the simulator from a GPU model name, a memory size and a position ({@link #of}). Unknown facts
 * are empty and their attributes are left out.
 *
 * @param uuid                  NVML UUID
 * @param index                 NVML index (slice order; filterdevices by index)
 * @param minor                 N of {@code /dev/nvidiaN}: the device name {@code gpu-N}; empty = cannot be published
 * @param productName           NVML product name
 * @param memoryBytes           installed memory; empty on unified-memory parts (then {@code preConfiguredDeviceMemory})
 * @param numa                  NUMA node, when known
 * @param pciBusId              PCI address as NVML prints it ({@code 00000000:3B:00.0}), when known
 * @param architecture          e.g. {@code Hopper}, when known
 * @param brand                 e.g. {@code Nvidia}, when known
 * @param cudaComputeCapability {@code <major>.<minor>}, when known
 * @param health                what the taints say
 */
public record SliceGpu(String uuid, int index, OptionalInt minor, String productName, OptionalLong memoryBytes,
                       OptionalInt numa, Optional<String> pciBusId, Optional<String> architecture,
                       Optional<String> brand, Optional<String> cudaComputeCapability, GpuHealth health) {

    /** Requires a UUID; nulls mean unknown (health: healthy). */
    public SliceGpu {
        if (uuid == null || uuid.isEmpty()) {
            throw new IllegalArgumentException("GPU uuid is empty");
        }
        minor = minor == null ? OptionalInt.empty() : minor;
        productName = productName == null ? "" : productName;
        memoryBytes = memoryBytes == null ? OptionalLong.empty() : memoryBytes;
        numa = numa == null ? OptionalInt.empty() : numa;
        pciBusId = pciBusId == null ? Optional.empty() : pciBusId;
        architecture = architecture == null ? Optional.empty() : architecture;
        brand = brand == null ? Optional.empty() : brand;
        cudaComputeCapability = cudaComputeCapability == null ? Optional.empty() : cudaComputeCapability;
        health = health == null ? GpuHealth.HEALTHY : health;
    }

    /**
     * A healthy GPU with only the facts a synthetic node has: its position is both index and minor
     * number, the rest unknown.
     */
    public static SliceGpu of(String uuid, int position, String productName, long memoryBytes) {
        return new SliceGpu(uuid, position, OptionalInt.of(position), productName, OptionalLong.of(memoryBytes),
                OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                GpuHealth.HEALTHY);
    }

    /** The same GPU with another health. */
    public SliceGpu withHealth(GpuHealth newHealth) {
        return new SliceGpu(uuid, index, minor, productName, memoryBytes, numa, pciBusId, architecture, brand,
                cudaComputeCapability, Objects.requireNonNull(newHealth, "newHealth"));
    }
}
