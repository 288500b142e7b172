package io.vgpu.loadtest.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds, appended from one thread at a time (callers synchronise or confine). */
final class Samples {

    private long[] values = new long[4096];
    private int size;

    synchronized void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    synchronized int size() {
        return size;
    }

    /** The percentiles of what was recorded, in milliseconds. */
    synchronized Latency latency() {
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        return new Latency(size, millis(sorted, 0.50), millis(sorted, 0.99), millis(sorted, 0.999),
                size == 0 ? 0 : sorted[size - 1] / 1e6);
    }

    private static double millis(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int at = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, at))] / 1e6;
    }

    /**
     * Nearest-rank percentiles.
     *
     * @param samples how many
     * @param p50     median, ms
     * @param p99     99th percentile, ms
     * @param p999    99.9th percentile, ms
     * @param max     largest, ms
     */
    record Latency(int samples, double p50, double p99, double p999, double max) {
    }
}
