package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.simulate.SyntheticNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The heap of a replica among several (issue 14's heap target): since a pod's charge lives only with its node key's
 * owner and backup, a replica of a multi-replica deployment holds less than the one member of {@link HeapProbe}.
 * Starts the replicas as the density rows do ({@link Deployment#start} with the probe's cluster and placed pods,
 * each replica in its own JVM with the run's replica JVM options, its informer mirror filled by the driver's sink),
 * waits until every replica's view shows every placed pod, fills each replica's filter verdict cache to its bound
 * (one {@code /filter} over every node per pod shape, as the probe does), waits until every replica's ingest has
 * drained, then asks each replica for its used heap after full GC (until two reads agree), and once more after emptying its informer mirror (the difference: what the mirror alone keeps).
 */
final class ReplicaHeapRun {

    /** How long the row waits for the replicas' ingest to drain before it measures anyway. */
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(5);
    /** Reads of "nothing in flight" in a row that count as drained. */
    private static final int DRAINED_READS = 3;
    private static final Duration HEAP_READ_GAP = Duration.ofSeconds(10);
    private static final int HEAP_STABLE_MIB = 4;
    private static final int HEAP_READS = 5;

    private ReplicaHeapRun() {
    }

    /** The row: per replica and the max, the driver's own heap, and how long each step took. */
    static Map<String, Object> run(int replicas, int nodeCount, int podCount, List<String> replicaJvm)
            throws Exception {
        long t0 = System.nanoTime();
        List<SyntheticNode> nodes = HeapProbe.cluster(nodeCount);
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        List<ObservedPod> placed = PlacedPods.spread(nodes, podCount);
        System.out.printf("bench: heap of %d replicas at %d nodes / %d pods (own JVMs, %s)%n", replicas, nodeCount,
                podCount, String.join(" ", replicaJvm));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicas", replicas);
        out.put("nodes", nodeCount);
        out.put("gpus", nodeCount * 8);
        out.put("pods", podCount);
        out.put("jvm", String.join(" ", replicaJvm));
        try (Deployment d = Deployment.start(nodes, replicas, Duration.ZERO, "binpack",
                SchedulingConfig.DEFAULTS.reservationTtl(), placed, 0, replicaJvm);
             BenchHttp http = new BenchHttp()) {
            out.put("readySeconds", Benchmark.round((System.nanoTime() - t0) / 1e9));
            out.put("filterErrors", fillVerdictCaches(d, http, names));
            awaitIngestDrained(d, out);
            List<long[]> full = settledHeaps(d, out);
            // measured while the deployment is up: the sink with every pod and the watch streams' buffers
            long driver = HeapReport.usedAfterGc();
            List<long[]> withoutMirror = d.heaps("heap-without-mirror");
            List<Double> used = new ArrayList<>();
            List<Double> mirror = new ArrayList<>();
            for (int i = 0; i < full.size(); i++) {
                used.add(mib(full.get(i)[0]));
                mirror.add(mib(full.get(i)[0] - withoutMirror.get(i)[0]));
            }
            out.put("heapMaxMiB", mib(full.get(0)[1]));
            out.put("usedAfterGcMiB", used);
            out.put("withoutMirrorMiB", withoutMirror.stream().map(h -> mib(h[0])).toList());
            out.put("mirrorMiB", mirror);
            out.put("driverUsedAfterGcMiB", mib(driver));
            out.put("driverHeapMaxMiB", mib(Runtime.getRuntime().maxMemory()));
        }
        out.put("seconds", Benchmark.round((System.nanoTime() - t0) / 1e9));
        return out;
    }

    /**
     * Waits until no replica has an ingest call to the shared state in flight, {@value #DRAINED_READS} reads in a
     * row a second apart: {@code READY} means every placed pod is in the views, while a replica's ingest window may
     * still hold hundreds of thousands of queued changes (a figure taken then weighs a backlog that drains). Bounded:
     * a backlog still there after {@link #DRAIN_LIMIT} is reported ({@code ingestDrained} false), not waited for.
     */
    private static void awaitIngestDrained(Deployment d, Map<String, Object> out) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + DRAIN_LIMIT.toNanos();
        List<Long> inFlight = d.ingestInFlight();
        out.put("ingestInFlightAfterFill", inFlight);
        int zeroReads = 0;
        while (true) {
            zeroReads = inFlight.stream().allMatch(n -> n == 0) ? zeroReads + 1 : 0;
            if (zeroReads >= DRAINED_READS || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(1000);
            inFlight = d.ingestInFlight();
        }
        out.put("ingestDrained", zeroReads >= DRAINED_READS);
        out.put("ingestInFlightAtHeap", inFlight);
        out.put("ingestDrainSeconds", Benchmark.round((System.nanoTime() - t0) / 1e9));
        if (zeroReads < DRAINED_READS) {
            System.out.println("bench: heap: the replicas' ingest did not drain within " + DRAIN_LIMIT.toSeconds()
                    + " s, in flight " + inFlight);
        }
    }

    /**
     * Each replica's used heap after full GC, read again {@link #HEAP_READ_GAP} later until no replica's figure moved
     * by more than {@value #HEAP_STABLE_MIB} MiB (at most {@value #HEAP_READS} reads): what the views' last summaries
     * and listener queues still held is gone. The last read is the row's figure; {@code heapReadsMiB} has them all.
     */
    private static List<long[]> settledHeaps(Deployment d, Map<String, Object> out) throws Exception {
        List<List<Double>> reads = new ArrayList<>();
        List<long[]> last = d.heaps("heap");
        reads.add(last.stream().map(h -> mib(h[0])).toList());
        boolean stable = false;
        while (!stable && reads.size() < HEAP_READS) {
            Thread.sleep(HEAP_READ_GAP.toMillis());
            List<long[]> next = d.heaps("heap");
            stable = true;
            for (int i = 0; i < next.size(); i++) {
                stable &= Math.abs(next.get(i)[0] - last.get(i)[0]) <= HEAP_STABLE_MIB * 1024L * 1024L;
            }
            last = next;
            reads.add(last.stream().map(h -> mib(h[0])).toList());
        }
        out.put("heapReadsMiB", reads);
        out.put("heapStable", stable);
        return last;
    }

    /**
     * One {@code /filter} per pod shape on each replica, every node listed: each replica's verdict cache at its
     * bound, as in the probe. A filter that finds no fit fills the cache as well; its error is only counted.
     *
     * @return filters answered with an error
     */
    private static int fillVerdictCaches(Deployment d, BenchHttp http, List<String> names) throws Exception {
        BenchPods payloads = new BenchPods("heap", names);
        int[] ports = d.ports();
        int errors = 0;
        for (int r = 0; r < ports.length; r++) {
            for (int shape = 0; shape < HeapProbe.VERDICT_SHAPES; shape++) {
                // a UID as the API server gives it: the filter refuses a pod without one
                PodSpec pod = BenchPods.withUid(HeapProbe.shapedPod(shape, "-r" + r), String.format(Locale.ROOT,
                        "00000000-0000-4000-9000-%06d%06d", r, shape));
                d.create(pod);
                BenchHttp.Reply reply = http.post(ports[r], "/filter", payloads.filterArgs(pod)).toCompletionStage()
                        .toCompletableFuture().get(2, TimeUnit.MINUTES);
                if (!reply.error().isEmpty()) {
                    errors++;
                    System.out.println("bench: heap: filter of " + pod.name() + " on replica " + r + ": "
                            + reply.error());
                }
            }
        }
        return errors;
    }

    private static double mib(long bytes) {
        return Benchmark.round(HeapReport.mib(bytes));
    }
}
