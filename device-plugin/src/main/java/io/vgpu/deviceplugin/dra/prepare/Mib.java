package io.vgpu.deviceplugin.dra.prepare;

/** Mebibytes, HAMi-core's memory unit ({@code <n>m} in its limit variables). */
final class Mib {

    /** Bytes in one MiB. */
    static final long BYTES = 1L << 20;

    private Mib() {
    }

    /**
     * {@code bytes} as whole MiB, rounded <b>up</b>, at least 1: the rounding the allocator applies to a
     * memory request (spec/dra-spec.md §7 item 8: 4000000000 bytes → 4000317440 → 3815 MiB), so a limit
     * never falls below what was asked, and never reads 0, which HAMi-core takes as "no limit".
     */
    static long ceil(long bytes) {
        return Math.max(1, (bytes + BYTES - 1) / BYTES);
    }
}
