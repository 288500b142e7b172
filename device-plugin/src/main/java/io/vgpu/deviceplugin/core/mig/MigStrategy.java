package io.vgpu.deviceplugin.core.mig;

import java.util.Locale;
import java.util.Optional;

/**
 * NVIDIA's static MIG strategies ({@code --mig-strategy}, HAMi chart {@code devicePlugin.migStrategy}):
 * how MIG devices that already exist become kubelet devices (spec §5.2). Unrelated to dynamic MIG
 * ({@code operatingmode: mig}).
 */
public enum MigStrategy {
    /** MIG is ignored: every GPU is advertised as a whole (split into HAMi's fake devices). */
    NONE,
    /** Every GPU is MIG-enabled with one MIG profile; its MIG devices are the {@code nvidia.com/gpu} devices. */
    SINGLE,
    /** MIG devices become {@code nvidia.com/mig-<profile>} devices; GPUs without MIG stay {@code nvidia.com/gpu}. */
    MIXED;

    /** The strategy of a flag value ({@code none}, {@code single}, {@code mixed}, any case). */
    public static Optional<MigStrategy> parse(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "none" -> Optional.of(NONE);
            case "single" -> Optional.of(SINGLE);
            case "mixed" -> Optional.of(MIXED);
            default -> Optional.empty();
        };
    }
}
