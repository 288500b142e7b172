package io.vgpu.state.model;

/**
 * How much of a GPU a node advertises: HAMi's register rule (device-plugin spec §3.3), which DRA mode's
 * {@code memory} and {@code cores} capacities follow too, so a node offers the same card in both modes.
 * Pure.
 */
public final class RegisteredCapacity {

    private static final long MIB = 1024L * 1024L;

    private RegisteredCapacity() {
    }

    /** {@code int32(bytes / 1024 / 1024)}: installed memory in whole MiB, as Go converts it. */
    public static int mib(long bytes) {
        return (int) (bytes / MIB);
    }

    /**
     * {@code deviceMemoryScaling} applied: unchanged at 1, else {@code int32(float64(mib) * scaling)}
     * (IEEE-754 product, truncated toward zero).
     */
    public static int scaledMib(int mib, double scaling) {
        return scaling == 1 ? mib : (int) ((double) mib * scaling);
    }

    /** {@code devcore} = {@code int32(deviceCoreScaling * 100)}: IEEE-754 double product, truncated toward zero. */
    public static int cores(double coreScaling) {
        return (int) (coreScaling * 100);
    }
}
