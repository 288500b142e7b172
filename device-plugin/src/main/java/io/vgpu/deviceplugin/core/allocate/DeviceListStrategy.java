package io.vgpu.deviceplugin.core.allocate;

import java.util.Locale;
import java.util.Optional;

/** How the allocated devices are passed to the container runtime (NVIDIA's {@code --device-list-strategy}). */
public enum DeviceListStrategy {
    /** {@code NVIDIA_VISIBLE_DEVICES=<ids>} (the default and the HAMi chart's choice). */
    ENVVAR("envvar"),
    /** {@code NVIDIA_VISIBLE_DEVICES=/var/run/nvidia-container-devices} plus one {@code /dev/null} mount per ID. */
    VOLUME_MOUNTS("volume-mounts"),
    /** CDI device names in a container annotation. */
    CDI_ANNOTATIONS("cdi-annotations"),
    /** CDI device names in the response's {@code cdi_devices}. */
    CDI_CRI("cdi-cri");

    private final String wire;

    DeviceListStrategy(String wire) {
        this.wire = wire;
    }

    /** The flag value, e.g. {@code volume-mounts}. */
    public String wire() {
        return wire;
    }

    /** True for the two CDI strategies. */
    public boolean isCdi() {
        return this == CDI_ANNOTATIONS || this == CDI_CRI;
    }

    /** Parses a flag value (case-insensitive, trimmed). */
    public static Optional<DeviceListStrategy> parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DeviceListStrategy s : values()) {
            if (s.wire.equals(v)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
