package io.vgpu.hamicore;

import java.util.Objects;

/**
 * What the device plugin needs to know about one physical GPU, read in one pass.
 *
 * @param index            NVML index (0-based enumeration order)
 * @param uuid             NVML UUID, e.g. {@code GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec}
 * @param name             NVML product name, e.g. {@code Tesla V100-PCIE-32GB}
 * @param memoryTotalBytes installed memory in bytes
 * @param memoryUsedBytes  allocated memory in bytes
 * @param pciBusId         NVML PCI bus id as NVML prints it, e.g. {@code 00000000:3B:00.0}
 * @param numaNode         NUMA node from sysfs; 0 when unknown or negative
 * @param migEnabled       MIG is currently on
 */
public record GpuInfo(int index, String uuid, String name, long memoryTotalBytes, long memoryUsedBytes,
                      String pciBusId, int numaNode, boolean migEnabled) {

    public GpuInfo {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pciBusId, "pciBusId");
    }
}
