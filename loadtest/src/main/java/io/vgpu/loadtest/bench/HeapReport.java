package io.vgpu.loadtest.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.Locale;

/**
 * The heap figure of a benchmark JVM: used heap after a full GC ({@link MemoryMXBean}, three {@code System.gc()}
 * calls apart, so that what a first collection only marks for finalization or reference clearing is gone too).
 * The heap probe ({@link HeapProbe}) measures with it at each step; a replica ({@link ReplicaMain}) answers its
 * {@code heap} command with {@link #line}.
 */
final class HeapReport {

    /** The answer word a replica prints: {@code HEAP <used bytes> <max bytes>}. */
    static final String WORD = "HEAP";

    private HeapReport() {
    }

    /** Used heap in bytes after three full collections. */
    static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
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
