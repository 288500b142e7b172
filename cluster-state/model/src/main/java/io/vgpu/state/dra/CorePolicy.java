package io.vgpu.state.dra;

import java.util.Arrays;
import java.util.Optional;

/**
 * HAMi-core's SM-limit policy for a share, the value of {@code GPU_CORE_UTILIZATION_POLICY} (HAMi's
 * {@code nvidia.gpuCorePolicy}): {@link #DEFAULT} follows the monitor's {@code utilization_switch},
 * {@link #FORCE} always limits, {@link #DISABLE} never limits.
 */
public enum CorePolicy {
    /** Follow the region's {@code utilization_switch} (the monitor's feedback decides); no variable is set. */
    DEFAULT("default"),
    /** Always enforce the SM limit. */
    FORCE("force"),
    /** Never enforce the SM limit. */
    DISABLE("disable");

    private final String wire;

    CorePolicy(String wire) {
        this.wire = wire;
    }

    /** The spelling on the wire and in the environment variable, e.g. {@code force}. */
    public String wire() {
        return wire;
    }

    /** The policy spelled {@code text} exactly (lower case, as HAMi-core compares it); empty otherwise. */
    public static Optional<CorePolicy> parse(String text) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(text)).findFirst();
    }
}
