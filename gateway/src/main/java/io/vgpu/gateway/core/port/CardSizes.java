package io.vgpu.gateway.core.port;

import java.util.SortedSet;

/**
 * The distinct GPU memory sizes present in the cluster, in MiB as the nodes register them (device-plugin mode's
 * {@code devmem}, DRA mode's {@code memory} capacity / 2^20): what a {@code gpumem-percentage} request is
 * translated against. Implementations read caches only (never block).
 */
public interface CardSizes {

    /** None known. */
    CardSizes NONE = java.util.Collections::emptySortedSet;

    /** The sizes, ascending. */
    SortedSet<Long> memoryMiB();

    /** The union of several sources (e.g. device-plugin nodes and ResourceSlices). */
    static CardSizes union(java.util.List<CardSizes> sources) {
        return () -> {
            java.util.TreeSet<Long> all = new java.util.TreeSet<>();
            sources.forEach(s -> all.addAll(s.memoryMiB()));
            return java.util.Collections.unmodifiableSortedSet(all);
        };
    }
}
