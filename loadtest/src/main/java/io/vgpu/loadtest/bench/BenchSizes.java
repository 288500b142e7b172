package io.vgpu.loadtest.bench;

import java.time.Duration;
import java.util.List;

/**
 * How big and how long each part of the benchmark runs.
 *
 * @param filterNodes  cluster sizes of the {@code /filter} rows
 * @param filterTiming warm-up and window of a {@code /filter} row
 * @param cycleNodes   cluster size of the cycle rows
 * @param cycleTiming  warm-up and window of a cycle row
 * @param replicas     replica counts of the cycle rows
 * @param streams      kube-scheduler stream counts (K) of the cycle rows
 * @param delaysMillis device-plugin delays of the cycle rows
 * @param mockNodes    cluster size of the mock-API rows
 * @param mockReplicas replica counts of the mock-API rows
 * @param heapNodes    nodes of the heap probe
 * @param heapPods     placed pods of the heap probe
 * @param heapLimit    how long one heap probe may run
 */
record BenchSizes(List<Integer> filterNodes, ExtenderLoad.Timing filterTiming, int cycleNodes,
                  ExtenderLoad.Timing cycleTiming, List<Integer> replicas, List<Integer> streams,
                  List<Long> delaysMillis, int mockNodes, List<Integer> mockReplicas, int heapNodes, int heapPods,
                  Duration heapLimit) {

    /** The documented run (docs/benchmarks.md). */
    static final BenchSizes FULL = new BenchSizes(List.of(500, 5_000, 10_000),
            new ExtenderLoad.Timing(Duration.ofSeconds(8), Duration.ofSeconds(12)), 500,
            new ExtenderLoad.Timing(Duration.ofSeconds(5), Duration.ofSeconds(10)), List.of(1, 3), List.of(1, 3),
            List.of(0L, 200L), 100, List.of(1, 3), 10_000, 200_000, Duration.ofMinutes(4));

    /** CI: every part, small and short. */
    static final BenchSizes SMOKE = new BenchSizes(List.of(50),
            new ExtenderLoad.Timing(Duration.ofMillis(500), Duration.ofSeconds(1)), 50,
            new ExtenderLoad.Timing(Duration.ofSeconds(1), Duration.ofSeconds(2)), List.of(1), List.of(1),
            List.of(0L), 20, List.of(1), 200, 2_000, Duration.ofMinutes(2));
}
