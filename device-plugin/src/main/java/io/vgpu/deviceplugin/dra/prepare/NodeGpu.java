package io.vgpu.deviceplugin.dra.prepare;

import java.util.Objects;
import java.util.Optional;

/**
 * One GPU this node offers in DRA mode, as NodePrepareResources needs it.
 *
 * @param deviceName  {@code gpu-<minor>} ({@code DraNames.deviceName})
 * @param uuid        NVML UUID: what {@code NVIDIA_VISIBLE_DEVICES} names
 * @param minor       N of {@code /dev/nvidiaN}
 * @param index       NVML index on the host
 * @param pciBusId    {@code dddd:bb:dd.f}; the order in which a container's NVML numbers its GPUs
 * @param memoryBytes the {@code memory} capacity (card memory with the node's scaling, whole MiB):
 *                    the most all prepared shares of this GPU may consume together
 * @param cores       the {@code cores} capacity (percent; 100 times the node's core scaling)
 * @param slots       the {@code slots} capacity ({@link #SLOTS})
 */
public record NodeGpu(String deviceName, String uuid, int minor, int index, Optional<String> pciBusId,
                      long memoryBytes, long cores, long slots) {

    /** The {@code slots} value of every device (DESIGN.md §8). */
    public static final long SLOTS = 1000;

    /** Requires names; null bus id means unknown. */
    public NodeGpu {
        Objects.requireNonNull(deviceName, "deviceName");
        Objects.requireNonNull(uuid, "uuid");
        pciBusId = pciBusId == null ? Optional.empty() : pciBusId;
    }

    /** {@code /dev/nvidia<minor>}. */
    public String deviceNode() {
        return "/dev/nvidia" + minor;
    }

    /** The capacity called {@code name} ({@code memory}, {@code cores}, {@code slots}); -1 when there is none. */
    public long capacity(String name) {
        return switch (name) {
            case Capacities.MEMORY -> memoryBytes;
            case Capacities.CORES -> cores;
            case Capacities.SLOTS -> slots;
            default -> -1;
        };
    }
}
