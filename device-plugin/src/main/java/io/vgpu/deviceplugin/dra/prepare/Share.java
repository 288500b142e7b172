package io.vgpu.deviceplugin.dra.prepare;

import java.util.Objects;
import java.util.Optional;

/**
 * What one prepared result takes of a GPU, for the node-local over-commit guard ({@link ShareLedger}).
 *
 * @param deviceName  {@code gpu-<minor>}
 * @param shareId     the allocation's share ID; empty for an exclusive allocation
 * @param memoryBytes bytes of the {@code memory} capacity
 * @param cores       percent of the {@code cores} capacity
 * @param slots       of the {@code slots} capacity
 */
public record Share(String deviceName, Optional<String> shareId, long memoryBytes, long cores, long slots) {

    /** Requires the device name. */
    public Share {
        Objects.requireNonNull(deviceName, "deviceName");
        shareId = shareId == null ? Optional.empty() : shareId;
    }

    /** An exclusive allocation (no share ID): the GPU is this claim's alone. */
    public boolean exclusive() {
        return shareId.isEmpty();
    }

    /** The amount of capacity {@code name}. */
    public long amount(String name) {
        return switch (name) {
            case Capacities.MEMORY -> memoryBytes;
            case Capacities.CORES -> cores;
            case Capacities.SLOTS -> slots;
            default -> 0;
        };
    }
}
