package io.vgpu.state.dra;

import java.util.Objects;

/**
 * A taint on a device (spec/dra-spec.md §1.2, gate {@code DRADeviceTaints}, beta and on in 1.36): only
 * requests that tolerate it get the device; with {@code NoExecute} the pods already using it are
 * evicted. The API server stamps {@code timeAdded}; it is not part of the content compared here.
 *
 * @param key    a qualified name, e.g. {@code gpu.vgpu.io/unhealthy}
 * @param value  a label value (may be empty)
 * @param effect {@link #NO_SCHEDULE}, {@link #NO_EXECUTE} or {@code None}
 */
public record DeviceTaint(String key, String value, String effect) {

    /** New allocations need a toleration. */
    public static final String NO_SCHEDULE = "NoSchedule";
    /** As {@link #NO_SCHEDULE}, and pods using the device are evicted. */
    public static final String NO_EXECUTE = "NoExecute";

    /** Requires key and effect; a null value is empty. */
    public DeviceTaint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(effect, "effect");
        value = value == null ? "" : value;
    }
}
