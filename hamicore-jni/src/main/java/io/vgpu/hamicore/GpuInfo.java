package io.vgpu.hamicore;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the device plugin needs to know about one physical GPU, read in one pass.
 *
 * <p>The last four facts may be unknown (empty) where the driver cannot answer them (an older
 * NVML without the function, or NOT_SUPPORTED); see {@link Nvml}. The driver-wide facts (driver and
 * CUDA version) are in {@link DriverInfo}, not here.
 *
 * @param index                 NVML index (0-based enumeration order)
 * @param uuid                  NVML UUID, e.g. {@code GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec}
 * @param name                  NVML product name, e.g. {@code Tesla V100-PCIE-32GB}
 * @param memoryTotalBytes      installed memory in bytes
 * @param memoryUsedBytes       allocated memory in bytes
 * @param pciBusId              NVML PCI bus id as NVML prints it, e.g. {@code 00000000:3B:00.0}
 * @param numaNode              NUMA node from sysfs; 0 when unknown or negative
 * @param migEnabled            MIG is currently on
 * @param minorNumber           N of the device node {@code /dev/nvidiaN} ({@link Nvml#minorNumber})
 * @param architecture          NVML architecture name, e.g. {@code Hopper} ({@link Nvml#architecture})
 * @param brand                 NVML brand name, e.g. {@code Nvidia} ({@link Nvml#brand})
 * @param cudaComputeCapability CUDA compute capability, e.g. 9.0 ({@link Nvml#cudaComputeCapability})
 */
public record GpuInfo(int index, String uuid, String name, long memoryTotalBytes, long memoryUsedBytes,
                      String pciBusId, int numaNode, boolean migEnabled, OptionalInt minorNumber,
                      Optional<String> architecture, Optional<String> brand,
                      Optional<MajorMinor> cudaComputeCapability) {

    /** Requires uuid, name and bus id; a null optional means unknown. */
    public GpuInfo {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pciBusId, "pciBusId");
        minorNumber = minorNumber == null ? OptionalInt.empty() : minorNumber;
        architecture = architecture == null ? Optional.empty() : architecture;
        brand = brand == null ? Optional.empty() : brand;
        cudaComputeCapability = cudaComputeCapability == null ? Optional.empty() : cudaComputeCapability;
    }

    /** A GPU whose minor number, architecture, brand and compute capability are unknown. */
    public GpuInfo(int index, String uuid, String name, long memoryTotalBytes, long memoryUsedBytes,
                   String pciBusId, int numaNode, boolean migEnabled) {
        this(index, uuid, name, memoryTotalBytes, memoryUsedBytes, pciBusId, numaNode, migEnabled,
                OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** This GPU at another NVML index (everything else kept). */
    GpuInfo atIndex(int newIndex) {
        return new GpuInfo(newIndex, uuid, name, memoryTotalBytes, memoryUsedBytes, pciBusId, numaNode, migEnabled,
                minorNumber, architecture, brand, cudaComputeCapability);
    }
}
