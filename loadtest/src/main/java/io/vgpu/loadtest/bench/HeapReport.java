package io.vgpu.loadtest.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The heap figure of a benchmark JVM: used heap after a full GC (three {@code System.gc()} calls apart, so that what a
 * first collection only marks for finalization or reference clearing is gone too; the last one's own figure, see
 * {@link #usedAfterGc}). {@link MemoryMXBean} gives the fallback.
 * The heap probe ({@link HeapProbe}) measures with it at each step; a replica ({@link ReplicaMain}) answers its
 * {@code heap} command with {@link #line}.
 */
final class HeapReport {

    /** The answer word a replica prints: {@code HEAP <used bytes> <max bytes>}. */
    static final String WORD = "HEAP";

    private HeapReport() {
    }

    /**
     * Used heap in bytes after three full collections: the heap pools' usage at the end of the last one, as the
     * collector reports it. Read afterwards instead ({@code getHeapMemoryUsage}), the figure also counted what the
     * process allocated since: a busy replica's reads moved by 50 MiB from one to the next (412 to 462 MiB). Falls
     * back to the used heap when no collector reports the collection.
     */
    static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(200);
        }
        Map<GarbageCollectorMXBean, Long> before = collectionCounts();
        System.gc();
        OptionalLong atEnd = heapAtEndOfCollection(before);
        return atEnd.isPresent() ? atEnd.getAsLong()
                : ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static Map<GarbageCollectorMXBean, Long> collectionCounts() {
        Map<GarbageCollectorMXBean, Long> counts = new HashMap<>();
        ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> counts.put(gc, gc.getCollectionCount()));
        return counts;
    }

    /**
     * The heap pools' used bytes at the end of the collection {@code System.gc()} ran: of the collectors that ran
     * since {@code before}, the smallest (a young collection right after the full one ends with more, never less).
     */
    private static OptionalLong heapAtEndOfCollection(Map<GarbageCollectorMXBean, Long> before) {
        Set<String> heapPools = new HashSet<>();
        ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .forEach(p -> heapPools.add(p.getName()));
        OptionalLong smallest = OptionalLong.empty();
        for (Map.Entry<GarbageCollectorMXBean, Long> e : before.entrySet()) {
            if (!(e.getKey() instanceof com.sun.management.GarbageCollectorMXBean gc)
                    || gc.getCollectionCount() == e.getValue() || gc.getLastGcInfo() == null) {
                continue;
            }
            long used = 0;
            for (Map.Entry<String, MemoryUsage> pool : gc.getLastGcInfo().getMemoryUsageAfterGc().entrySet()) {
                if (heapPools.contains(pool.getKey())) {
                    used += pool.getValue().getUsed();
                }
            }
            if (smallest.isEmpty() || used < smallest.getAsLong()) {
                smallest = OptionalLong.of(used);
            }
        }
        return smallest;
    }

    /** {@code HEAP <used bytes after full GC> <max heap bytes>}. */
    static String line() throws InterruptedException {
        long used = usedAfterGc();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return String.format(Locale.ROOT, "%s %d %d", WORD, used, heap.getMax());
    }

    /**
     * Parses a replica's answer (the part after {@code HEAP }).
     *
     * @return used bytes after full GC, max heap bytes
     */
    static long[] parse(String answer) {
        String[] f = answer.trim().split(" ");
        if (f.length != 2) {
            throw new IllegalArgumentException("not a heap answer: " + answer);
        }
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
    }

    static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
