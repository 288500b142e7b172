package io.vgpu.deviceplugin.core.allocate;

import java.util.Locale;
import java.util.Optional;

/** How devices are named to the container runtime (NVIDIA's {@code --device-id-strategy}). */
public enum DeviceIdStrategy {
    /** GPU UUIDs (the default). */
    UUID,
    /** NVML indices. */
    INDEX;

    /** Parses {@code uuid} or {@code index} (case-insensitive, trimmed). */
    public static Optional<DeviceIdStrategy> parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "uuid" -> Optional.of(UUID);
            case "index" -> Optional.of(INDEX);
            default -> Optional.empty();
        };
    }
}
