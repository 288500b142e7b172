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
 * @param densityNodes    cluster size of the fan-out density rows (8 GPUs per node)
 * @param densities       placed pods per node the cluster is filled to before each density row
 * @param densityReplicas replicas of the density rows
 * @param forkJvm         JVM options added to every JVM the run forks (replicas, the bare endpoint, the heap probe):
 *                        none for a measured run; for the smoke, options that make short-lived JVMs start cheaply
 *                        (C1 only, the class-data archive, the serial collector), since it checks plumbing, not speed
 * @param heapReplicas    replicas of the deployment heap row (at the heap probe's sizes); 0: the row is not run
 *                        (the smoke: three replica JVMs and their ingest cost about 50 s of CI, the probe 15 s)
 */
record BenchSizes(List<Integer> filterNodes, ExtenderLoad.Timing filterTiming, int cycleNodes,
                  ExtenderLoad.Timing cycleTiming, List<Integer> replicas, List<Integer> streams,
                  List<Long> delaysMillis, int mockNodes, List<Integer> mockReplicas, int heapNodes, int heapPods,
                  Duration heapLimit, int densityNodes, List<Integer> densities, int densityReplicas,
                  List<String> forkJvm, int heapReplicas) {

    /**
     * The documented run (docs/benchmarks.md). Each row starts cold JVMs: a cycle row warms up for 40 s (after 5 s,
     * and still after 45 s, three replicas on 2 cores were compiling in the window, their JIT threads about half of
     * their CPU; each row reports that part, {@code jitCpuMillisPerDecision}) and measures 20 s. {@code --warmup} may
     * make it minutes: the sink deletes a cycle row's oldest pods beyond {@code --live-pods-per-node}, so the cluster
     * does not fill (500 nodes held about 31,000 pods when they stayed placed).
     */
    static final BenchSizes FULL = new BenchSizes(List.of(500, 5_000, 10_000),
            new ExtenderLoad.Timing(Duration.ofSeconds(20), Duration.ofSeconds(12)), 500,
            new ExtenderLoad.Timing(Duration.ofSeconds(40), Duration.ofSeconds(20)), List.of(1, 3), List.of(1, 3),
            List.of(0L, 200L), 100, List.of(1, 3), 10_000, 200_000, Duration.ofMinutes(4), 500, List.of(10, 100), 3,
            List.of(), 3);

    /**
     * A quick look at every row the targets need, small: minutes, not the record (scripts/bench.sh --small). The
     * warm-up is longer than the window: every row starts cold JVMs.
     */
    static final BenchSizes SMALL = new BenchSizes(List.of(5_000),
            new ExtenderLoad.Timing(Duration.ofSeconds(8), Duration.ofSeconds(6)), 100,
            new ExtenderLoad.Timing(Duration.ofSeconds(8), Duration.ofSeconds(6)), List.of(1, 3), List.of(1, 3),
            List.of(0L), 20, List.of(1), 1_000, 20_000, Duration.ofMinutes(3), 50, List.of(10, 100), 3, List.of(),
            3);

    /**
     * CI: every part's plumbing, not its numbers (docs/benchmarks.md, "CI smoke"): each row forks its replica JVMs
     * and runs a window long enough for a few decisions; the density rows fill 4 nodes to 10 and 100 pods each. The
     * heap probe runs, the deployment heap row does not.
     */
    static final BenchSizes SMOKE = new BenchSizes(List.of(50),
            new ExtenderLoad.Timing(Duration.ofMillis(300), Duration.ofMillis(700)), 50,
            new ExtenderLoad.Timing(Duration.ofMillis(500), Duration.ofSeconds(1)), List.of(1), List.of(1),
            List.of(0L), 10, List.of(1), 50, 500, Duration.ofMinutes(2), 4, List.of(10, 100), 1,
            List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC"), 0);

    /**
     * These sizes with every row's warm-up set to {@code warmup}: each row starts cold JVMs, and on 2 cores a few
     * seconds do not get three replicas past their JIT compilation (the warm-up question of docs/benchmarks.md).
     */
    BenchSizes withWarmup(Duration warmup) {
        return new BenchSizes(filterNodes, new ExtenderLoad.Timing(warmup, filterTiming.measure()), cycleNodes,
                new ExtenderLoad.Timing(warmup, cycleTiming.measure()), replicas, streams, delaysMillis, mockNodes,
                mockReplicas, heapNodes, heapPods, heapLimit, densityNodes, densities, densityReplicas, forkJvm,
                heapReplicas);
    }

    /** These sizes with every row's measured window set to {@code window}. */
    BenchSizes withWindow(Duration window) {
        return new BenchSizes(filterNodes, new ExtenderLoad.Timing(filterTiming.warmup(), window), cycleNodes,
                new ExtenderLoad.Timing(cycleTiming.warmup(), window), replicas, streams, delaysMillis, mockNodes,
                mockReplicas, heapNodes, heapPods, heapLimit, densityNodes, densities, densityReplicas, forkJvm,
                heapReplicas);
    }

    /** These sizes with the cycle rows run only at {@code delays} (device-plugin delays in ms). */
    BenchSizes withDelays(List<Long> delays) {
        return new BenchSizes(filterNodes, filterTiming, cycleNodes, cycleTiming, replicas, streams, List.copyOf(delays),
                mockNodes, mockReplicas, heapNodes, heapPods, heapLimit, densityNodes, densities, densityReplicas,
                forkJvm, heapReplicas);
    }
}
