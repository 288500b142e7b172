package io.vgpu.deviceplugin.core.gpu;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the device source knows of one physical GPU at one scan.
 *
 * @param uuid             NVML UUID
 * @param index            NVML index
 * @param name             NVML product name, e.g. {@code Tesla V100-PCIE-32GB}
 * @param memoryTotalBytes installed memory; empty when NVML answers NOT_SUPPORTED (unified-memory parts)
 * @param numa             NUMA node; empty when unknown
 * @param healthy          the source's own health (a fake GPU file may say unhealthy); XID checks come on top
 * @param details          identity facts for DRA attributes and CDI device nodes (minor number,
 *                         architecture, brand, compute capability, driver and CUDA versions), each
 *                         possibly unknown
 */
public record GpuFacts(String uuid, int index, String name, OptionalLong memoryTotalBytes, OptionalInt numa,
                       boolean healthy, GpuDetails details) {

    /** Requires a UUID; null optionals (and null details) mean unknown. */
    public GpuFacts {
        if (uuid == null || uuid.isEmpty()) {
            throw new IllegalArgumentException("GPU uuid is empty");
        }
        name = name == null ? "" : name;
        memoryTotalBytes = memoryTotalBytes == null ? OptionalLong.empty() : memoryTotalBytes;
        numa = numa == null ? OptionalInt.empty() : numa;
        details = details == null ? GpuDetails.UNKNOWN : details;
    }

    /** A GPU whose identity facts are all unknown ({@link GpuDetails#UNKNOWN}). */
    public GpuFacts(String uuid, int index, String name, OptionalLong memoryTotalBytes, OptionalInt numa,
                    boolean healthy) {
        this(uuid, index, name, memoryTotalBytes, numa, healthy, GpuDetails.UNKNOWN);
    }
}
