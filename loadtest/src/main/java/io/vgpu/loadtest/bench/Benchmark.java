package io.vgpu.loadtest.bench;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.simulate.ClusterGenerator;
import io.vgpu.simulate.ClusterSpec;
import io.vgpu.simulate.GpuModel;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.store.StoreConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Function;

/**
 * The benchmark driver (issue 6, docs/benchmarks.md): in ONE run, with the same request payloads,
 * <ol>
 *   <li>the ceiling: a bare Vert.x endpoint that only decodes and answers ({@link CeilingServer});</li>
 *   <li>{@code /filter} at 500, 5,000 and 10,000 nodes × 8 GPUs (NodeNames mode), one replica with the fast API
 *       sink in its own JVM (an API as fast as a map: the gateway's cost, not a loopback round trip per patch);</li>
 *   <li>the filter + bind cycle with 1 and 3 replicas and K = 1 and K = 3 kube-scheduler streams, on the fast API
 *       sink with the device plugin releasing each node lock 0 ms and 200 ms after the Binding (spread node policy;
 *       and the binpack lock bound), plus the one-replica K = 1 row again with the sink in the replica's JVM;</li>
 *   <li>the same cycle against the fabric8 mock API server (the gateway as {@code simulate} runs it, informers,
 *       simulated device plugin);</li>
 *   <li>the heap of one replica at 10,000 nodes / 200,000 placed pods under {@code -Xmx512m} ({@link HeapProbe},
 *       its own JVM), and of each replica among three at the same sizes ({@link ReplicaHeapRun}).</li>
 * </ol>
 * Writes {@code --out} (JSON) and {@code --markdown} (the tables of docs/benchmarks.md). {@code --smoke} runs every
 * part at small sizes for about a second each, to keep the driver from rotting (CI). {@code --only} picks parts:
 * {@code filter,cycle,binpack,mock,heap}.
 */
public final class Benchmark {

    private static final List<GpuModel> MODELS = List.of(GpuModel.byName("A100-SXM4-80GB"), GpuModel.byName("H100"),
            GpuModel.byName("L4"), GpuModel.byName("T4"));

    /**
     * The filter-only rows reserve and never bind: at over a thousand filters per second, reservations of the default
     * 25 s would fill a 500-node cluster (40,000 slots) within the run. Two seconds keeps a few thousand alive.
     */
    private static final Duration FILTER_ONLY_TTL = Duration.ofSeconds(2);

    /** Shares per GPU of the density rows' nodes, and each placed pod's memory: 100 pods per node leave room. */
    private static final int DENSITY_SPLIT = 32;
    /** The cycle row with three replicas and one of them taking every request ({@link #oneEntry}). */
    static final String ONE_ENTRY = "cycle-r3-k1-d0-entry1";
    private static final int DENSITY_POD_MIB = 100;

    private static final List<String> CEILING_JVM = List.of("-Xmx512m",
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4");
    /** The replicas' JVM options by default: the gateway image's, with a fixed heap instead of a share of RAM. */
    static final List<String> REPLICA_JVM = List.of("-Xmx1g", "-XX:+ExitOnOutOfMemoryError",
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4");

    /** The key of the deployment heap row ({@link ReplicaHeapRun}) in the heap results, beside the probe's. */
    static final String DEPLOYMENT_HEAP = "deployment";

    private static final long STARTED = System.nanoTime();

    private final BenchSizes sizes;
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, Object> heap = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    private final List<String> replicaJvm;
    private final BenchArgs args;
    private CeilingServer.Forked ceiling;

    private Benchmark(BenchSizes sizes, BenchArgs args) {
        this.sizes = sizes;
        this.args = args;
        this.replicaJvm = withForkJvm(args.replicaJvm());
    }

    /** {@code options} followed by the run's options for every forked JVM ({@link BenchSizes#forkJvm}). */
    private List<String> withForkJvm(List<String> options) {
        List<String> all = new ArrayList<>(options);
        all.addAll(sizes.forkJvm());
        return List.copyOf(all);
    }

    public static void main(String[] args) throws Exception {
        BenchArgs parsed = BenchArgs.parse(args);
        Logs.quiet();
        if (parsed.help()) {
            System.out.println(BenchArgs.USAGE);
            System.exit(0);
        }
        BenchSizes sizes = parsed.smoke() ? BenchSizes.SMOKE : parsed.small() ? BenchSizes.SMALL : BenchSizes.FULL;
        if (parsed.warmup() != null) {
            sizes = sizes.withWarmup(parsed.warmup());
        }
        if (parsed.window() != null) {
            sizes = sizes.withWindow(parsed.window());
        }
        if (!parsed.delays().isEmpty()) {
            sizes = sizes.withDelays(parsed.delays());
        }
        Benchmark bench = new Benchmark(sizes, parsed);
        Map<String, Object> machine = Machine.describe();
        long t0 = System.nanoTime();
        Runnable checkpoint = () -> bench.write(parsed, machine, t0, false);
        bench.runAll(parsed, checkpoint);
        BenchReport report = bench.write(parsed, machine, t0, true);
        System.out.println(report.markdown());
        System.out.printf(Locale.ROOT, "benchmark: %d rows in %.0f s; JSON %s%n", bench.rows.size(),
                (System.nanoTime() - t0) / 1e9, parsed.out());
        List<String> broken = new ArrayList<>(report.brokenRows());
        broken.addAll(bench.failures);
        if (!broken.isEmpty()) {
            System.err.println("benchmark: broken parts or rows without a successful request: " + broken);
            System.exit(1);
        }
        System.exit(0);
    }

    /** Writes the JSON (and Markdown) with what has been measured so far. */
    private BenchReport write(BenchArgs args, Map<String, Object> machine, long t0, boolean last) {
        Map<String, Object> m = new LinkedHashMap<>(machine);
        m.put("loadAverageAtEnd", Machine.loadAverage());
        BenchReport report = new BenchReport(m, sizes, rows, heap, (System.nanoTime() - t0) / 1e9, failures, !last);
        try {
            report.writeJson(args.out());
            if (args.markdown() != null) {
                report.writeMarkdown(args.markdown());
            }
        } catch (IOException e) {
            System.err.println("bench: cannot write the results: " + e);
        }
        return report;
    }

    private void runAll(BenchArgs args, Runnable checkpoint) throws Exception {
        try (BenchHttp http = new BenchHttp()) {
            if (args.wants("filter")) {
                for (int n : args.filterNodes().isEmpty() ? sizes.filterNodes() : args.filterNodes()) {
                    part("filter at " + n + " nodes", () -> filterAt(http, n));
                    checkpoint.run();
                }
            }
            if (args.wants("cycle")) {
                part("cycles", () -> cycles(http));
                checkpoint.run();
            }
            if (args.wants("fanout")) {
                part("fan-out at pod densities", () -> densities(http));
                checkpoint.run();
            }
            if (args.wants("binpack")) {
                part("binpack", () -> binpack(http));
                checkpoint.run();
            }
            if (args.wants("mock")) {
                part("mock API server", () -> mock(http));
                checkpoint.run();
            }
        } finally {
            if (ceiling != null) {
                ceiling.close();
            }
        }
        if (args.wants("heap")) {
            part("heap", () -> heap.putAll(HeapRun.fork(sizes.heapNodes(), sizes.heapPods(), sizes.heapLimit(),
                    sizes.forkJvm())));
        }
        // "replica-heap" alone skips the one-member probe (5 minutes at full size, most of it under -Xmx512m)
        if ((args.wants("heap") || args.only().contains("replica-heap")) && sizes.heapReplicas() > 0) {
            part("heap of " + sizes.heapReplicas() + " replicas", () -> heap.put(DEPLOYMENT_HEAP,
                    ReplicaHeapRun.run(sizes.heapReplicas(), sizes.heapNodes(), sizes.heapPods(), replicaJvm)));
        }
    }

    /** One part of the run; a part that breaks is reported and the others still run. */
    private void part(String name, Part part) {
        long start = System.nanoTime();
        try {
            part.run();
        } catch (Exception | Error e) {
            failures.add(name + ": " + e);
            System.err.println("bench: " + name + " failed: " + e);
            e.printStackTrace();
        }
        // each part's wall time, forks and closes included: where a run's (and CI's) time goes
        progress("%s took %.1f s", name, (System.nanoTime() - start) / 1e9);
    }

    /** A part of the run. */
    private interface Part {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------ /filter at N nodes

    private void filterAt(BenchHttp http, int nodeCount) throws Exception {
        List<SyntheticNode> nodes = cluster(nodeCount);
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        progress("filter at %d nodes: ceiling", nodeCount);
        Row ceiling = ExtenderLoad.filterOnly("ceiling-filter-" + nodeCount, "bare endpoint (own JVM), /filter payload of "
                        + nodeCount + " nodes", http, new int[] {ceiling().port()}, new BenchPods("c" + nodeCount, names),
                1, sizes.filterTiming(), Future::succeededFuture);
        rows.add(ceiling);
        progress("filter at %d nodes: gateway", nodeCount);
        try (Deployment d = Deployment.startWithSinkInReplica(nodes, Duration.ZERO, "binpack", FILTER_ONLY_TTL, 0,
                replicaJvm, http)) {
            Row row = ExtenderLoad.filterOnly("filter-" + nodeCount, "/filter, " + nodeCount + " nodes x 8 GPUs, "
                            + "1 replica, fast API sink in its JVM", http, d.ports(),
                    new BenchPods("f" + nodeCount, names), 1,
                    sizes.filterTiming(), d::create);
            rows.add(row.with("nodes", nodeCount)
                    .with("ratioP50ToCeiling", ratio(row.latency().p50(), ceiling.latency().p50()))
                    .with("ratioP99ToCeiling", ratio(row.latency().p99(), ceiling.latency().p99()))
                    .with("ceilingThroughput", round(ceiling.throughput())));
        }
    }

    // ------------------------------------------------------------------ filter + bind cycles

    private void cycles(BenchHttp http) throws Exception {
        int n = sizes.cycleNodes();
        List<SyntheticNode> nodes = cluster(n);
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        int livePods = args.livePodsPerNode() * n;
        Map<Integer, Row> ceilings = new LinkedHashMap<>();
        for (int k : sizes.streams()) {
            if (!args.wantsRow("ceiling-cycle-k" + k)) {
                continue;
            }
            progress("cycle ceiling K=%d", k);
            Row c = ExtenderLoad.cycle("ceiling-cycle-k" + k, "bare endpoint (own JVM), filter + bind payloads, " + n
                    + " nodes, K=" + k, http, new int[] {ceiling().port()}, new BenchPods("cc" + k, names), k,
                    sizes.cycleTiming(), Future::succeededFuture);
            ceilings.put(k, c);
            rows.add(c);
        }
        Map<String, Double> oneReplica = new LinkedHashMap<>();
        for (long delay : sizes.delaysMillis()) {
            for (int replicas : sizes.replicas()) {
                for (int k : sizes.streams()) {
                    String id = "cycle-r" + replicas + "-k" + k + "-d" + delay;
                    if (!args.wantsRow(id)) {
                        continue;
                    }
                    progress("cycle %s", id);
                    Row row = cycleRun(http, id, nodes, names, replicas, k, delay, "spread", List.of(), livePods);
                    if (ceilings.containsKey(k)) {
                        row = row.with("ratioToCeiling", ratio(row.throughput(), ceilings.get(k).throughput()));
                    }
                    if (replicas == 1) {
                        oneReplica.put(k + "/" + delay, row.throughput());
                    } else if (oneReplica.containsKey(k + "/" + delay)) {
                        row = row.with("lossVs1Replica", round(1 - ratio(row.throughput(),
                                oneReplica.get(k + "/" + delay))));
                    }
                    rows.add(row);
                }
            }
        }
        oneEntry(http, nodes, names, livePods, oneReplica);
        // the one-replica throughput target is for an API as fast as a map: the same row with the sink in the replica
        String id = "cycle-r1-k1-d0-in-process";
        if (!args.wantsRow(id)) {
            return;
        }
        progress("cycle %s", id);
        try (Deployment d = Deployment.startWithSinkInReplica(nodes, Duration.ZERO, "spread",
                SchedulingConfig.DEFAULTS.reservationTtl(), livePods, replicaJvm, http)) {
            Row row = measureCycle(http, id, d, nodes, names, 1, 1, 0, "spread", List.of(), livePods,
                    "fast API sink in its JVM").with("sinkInReplicaJvm", true);
            rows.add(ceilings.containsKey(1) ? row.with("ratioToCeiling", ratio(row.throughput(),
                    ceilings.get(1).throughput())) : row);
        }
    }

    /**
     * {@value #ONE_ENTRY}, run only when {@code --rows} names it: three replicas, every request sent to replica 0 (the
     * others take no request, but are members, hold backups and ingest every pod event, as in a cluster whose
     * kube-scheduler reaches one replica). Its per-replica CPU splits the three-replica excess of the cycle-r3 row
     * into what a replica costs by being there and what spreading the decisions adds (DESIGN.md §4, issue 14).
     */
    private void oneEntry(BenchHttp http, List<SyntheticNode> nodes, List<String> names, int livePods,
                          Map<String, Double> oneReplica) throws Exception {
        if (!args.rows().contains(ONE_ENTRY)) {
            return;
        }
        progress("cycle %s", ONE_ENTRY);
        try (Deployment d = Deployment.start(nodes, 3, Duration.ZERO, "spread",
                SchedulingConfig.DEFAULTS.reservationTtl(), List.of(), livePods, replicaJvm)) {
            Row row = measureCycle(http, ONE_ENTRY, d, new int[] {d.ports()[0]}, nodes, names, 3, 1, 0, "spread",
                    List.of(), livePods, "fast API sink, every request to replica 0");
            rows.add(oneReplica.containsKey("1/0") ? row.with("lossVs1Replica", round(1 - ratio(row.throughput(),
                    oneReplica.get("1/0")))) : row);
        }
    }

    /** The binpack node policy: consecutive pods go to the same node, so its lock is what they wait for. */
    private void binpack(BenchHttp http) throws Exception {
        List<SyntheticNode> nodes = cluster(sizes.cycleNodes());
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        for (long delay : sizes.delaysMillis()) {
            String id = "binpack-r1-k1-d" + delay;
            progress("cycle %s", id);
            rows.add(cycleRun(http, id, nodes, names, 1, 1, delay, "binpack", List.of(), 0));
        }
    }

    /**
     * One cycle row, every figure from its one measured window: decisions/s and latencies (the load), CPU per
     * decision summed over every replica process ({@code /proc/<pid>/stat} utime + stime, read at the window's start
     * and end), and the change events replica 0 received in that window ({@link FanOutMeter}; every replica receives
     * the same), per decision.
     *
     * @param livePods allocated pods the sink keeps alive, deleting the oldest beyond them (the steady state of the
     *                 cycle rows: their deletes' ingest is part of the gateway's CPU); 0: pods stay placed
     */
    private Row cycleRun(BenchHttp http, String id, List<SyntheticNode> nodes, List<String> names, int replicas,
                         int streams, long delayMillis, String nodePolicy, List<ObservedPod> placed, int livePods)
            throws Exception {
        try (Deployment d = Deployment.start(nodes, replicas, Duration.ofMillis(delayMillis), nodePolicy,
                SchedulingConfig.DEFAULTS.reservationTtl(), placed, livePods, replicaJvm)) {
            return measureCycle(http, id, d, nodes, names, replicas, streams, delayMillis, nodePolicy, placed,
                    livePods, "fast API sink");
        }
    }

    /** Measures one cycle row on a started deployment ({@link #cycleRun}). */
    private Row measureCycle(BenchHttp http, String id, Deployment d, List<SyntheticNode> nodes, List<String> names,
                             int replicas, int streams, long delayMillis, String nodePolicy, List<ObservedPod> placed,
                             int livePods, String sinkWords) throws Exception {
        return measureCycle(http, id, d, d.ports(), nodes, names, replicas, streams, delayMillis, nodePolicy, placed,
                livePods, sinkWords);
    }

    /** As above, the requests round-robin over {@code ports} only. */
    private Row measureCycle(BenchHttp http, String id, Deployment d, int[] ports, List<SyntheticNode> nodes,
                             List<String> names, int replicas, int streams, long delayMillis, String nodePolicy,
                             List<ObservedPod> placed, int livePods, String sinkWords) throws Exception {
        ExtenderLoad.Timing timing = sizes.cycleTiming();
        long[] cpu = {-1, -1};
        long[] jit = {-1, -1};
        List<List<OptionalLong>> each = new ArrayList<>(List.of(List.of(), List.of()));
        http.vertx().setTimer(Math.max(1, timing.warmup().toMillis()), t -> {
            each.set(0, d.cpuTicksEach());
            cpu[0] = ProcCpu.total(each.get(0)).orElse(-1);
            jit[0] = d.jitTicks().orElse(-1);
            sendQuietly(d::fanOutStart);
            sendQuietly(d::hopsStart);
        });
        http.vertx().setTimer(timing.warmup().plus(timing.measure()).toMillis(), t -> {
            each.set(1, d.cpuTicksEach());
            cpu[1] = ProcCpu.total(each.get(1)).orElse(-1);
            jit[1] = d.jitTicks().orElse(-1);
        });
        Row row = ExtenderLoad.cycle(id, "filter + bind, " + nodes.size() + " nodes, " + replicas + " replica(s), K="
                        + streams + ", device plugin " + delayMillis + " ms, " + nodePolicy + ", " + sinkWords
                        + (placed.isEmpty() ? "" : ", " + placed.size() / nodes.size() + " placed pods per node")
                        + (livePods > 0 ? ", pods deleted after their bind (" + livePods / nodes.size()
                        + " live per node)" : ""),
                http, ports, new BenchPods(id, names), streams, timing, d::create);
        double[] fanOut = d.fanOutStop();
        Map<String, String> hops = d.hops();
        double eventsPerSecond = fanOut[0] / row.seconds();
        double bytesPerSecond = eventsPerSecond * fanOut[1];
        double cpuPerDecision = cpu[0] < 0 || cpu[1] < 0 ? Double.NaN
                : ProcCpu.millisPerDecision(cpu[0], cpu[1], row.ok());
        double jitPerDecision = jit[0] < 0 || jit[1] < 0 ? Double.NaN
                : ProcCpu.millisPerDecision(jit[0], jit[1], row.ok());
        return row.with("replicas", replicas).with("devicePluginMillis", delayMillis).with("nodePolicy", nodePolicy)
                // the deletes' ingest (a DELETED event to every replica, the charge released) is in the CPU figures
                .with("podsDeletedAfterBind", livePods > 0)
                .with("livePodsPerNode", livePods / nodes.size())
                .with("podsDeleted", d.podsDeleted())
                .with("cpuMillisPerDecision", Double.isNaN(cpuPerDecision) ? null : round(cpuPerDecision))
                .with("cpuSource", "/proc/<pid>/stat utime+stime of every replica JVM, window start to end")
                // of which the JIT compiler threads (/proc/<pid>/task/*/stat): warm-up still running in the window
                .with("jitCpuMillisPerDecision", Double.isNaN(jitPerDecision) ? null : round(jitPerDecision))
                // each replica's share, in replica order (null: a process that could not be read)
                .with("cpuMillisPerDecisionByReplica",
                        ProcCpu.millisPerDecisionEach(each.get(0), each.get(1), row.ok()))
                .with("fanOutEventsPerSecond", round(eventsPerSecond))
                .with("fanOutMeanEventBytes", round(fanOut[1]))
                .with("fanOutBytesPerSecondPerReplica", round(bytesPerSecond))
                .with("fanOutBytesPerDecisionPerReplica", row.ok() == 0 ? null
                        : round(bytesPerSecond / row.throughput()))
                .with("apiWrites", d.apiWrites())
                .with("lockContendedPerDecision", row.ok() == 0 ? null
                        : round(HopTimes.count(hops, "lock.contended") / (double) row.ok()))
                .with("hops", hops);
    }

    private interface IoStep {
        void run() throws java.io.IOException;
    }

    private static void sendQuietly(IoStep step) {
        try {
            step.run();
        } catch (java.io.IOException e) {
            System.err.println("bench: a replica did not take a command: " + e);
        }
    }

    // ------------------------------------------------------------------ fan-out at pod densities

    /**
     * The fan-out rows: the cluster first filled to each density (placed pods of 100 MiB on every node, through the
     * informer path, before the measured load), then the K=1 cycle, spread, device plugin 0 ms. The nodes offer
     * 32 shares per GPU so that the cycle still finds room at 100 pods per node.
     */
    private void densities(BenchHttp http) throws Exception {
        List<SyntheticNode> nodes = ClusterGenerator.generate(new ClusterSpec(sizes.densityNodes(), 8, MODELS,
                DENSITY_SPLIT, 4), 42);
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        for (int perNode : sizes.densities()) {
            String id = "fanout-p" + perNode;
            progress("cycle %s (%d nodes filled to %d pods each)", id, nodes.size(), perNode);
            rows.add(cycleRun(http, id, nodes, names, sizes.densityReplicas(), 1, 0, "spread",
                    PlacedPods.fill(nodes, perNode, DENSITY_POD_MIB), 0).with("placedPodsPerNode", perNode));
        }
    }

    // ------------------------------------------------------------------ fabric8 mock API server

    private void mock(BenchHttp http) throws Exception {
        List<SyntheticNode> nodes = cluster(sizes.mockNodes());
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        for (int replicas : sizes.mockReplicas()) {
            for (int k : sizes.streams()) {
                String id = "mock-r" + replicas + "-k" + k;
                progress("cycle %s", id);
                try (MockApiDeployment d = MockApiDeployment.start(nodes, replicas)) {
                    Function<PodSpec, Future<PodSpec>> create = pod -> http.post(d.apiServerPort(),
                                    "/api/v1/namespaces/" + pod.namespace() + "/pods",
                                    Buffer.buffer(BenchPods.podJson(pod)))
                            .compose(r -> r.status() / 100 == 2 ? Future.succeededFuture(BenchPods.withUid(pod,
                                    r.json().path("metadata").path("uid").asText(pod.uid())))
                                    : Future.failedFuture("create: HTTP " + r.status()));
                    Row row = ExtenderLoad.cycle(id, "filter + bind, " + nodes.size() + " nodes, " + replicas
                                    + " replica(s), K=" + k + ", fabric8 mock API server, simulated device plugin",
                            http, d.ports(), new BenchPods(id, names), k, sizes.cycleTiming(), create);
                    rows.add(row.with("replicas", replicas).with("bindingsAnswered", d.bindings()));
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The bare endpoint, in a JVM of its own, started once per run. */
    private CeilingServer.Forked ceiling() throws Exception {
        if (ceiling == null) {
            ceiling = CeilingServer.fork(withForkJvm(CEILING_JVM));
        }
        return ceiling;
    }

    static List<SyntheticNode> cluster(int nodes) {
        return ClusterGenerator.generate(new ClusterSpec(nodes, 8, MODELS, 10, 4), 42);
    }

    /** What the device plugin advertises to kubelet: deviceSplitCount virtual devices per GPU. */
    static long virtualDevices(SyntheticNode node) {
        Decoded<List<GpuDevice>> devices = NodeRegisterCodec.decode(
                node.annotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER));
        return devices.isOk() ? devices.value().stream().mapToLong(GpuDevice::count).sum() : 0;
    }

    static StoreConfig store(String cluster, int port, List<String> members) {
        return new StoreConfig(cluster, members, "127.0.0.1", port, 1, 0, 0);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String newClusterName() {
        return "vgpu-bench-" + UUID.randomUUID();
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static double ratio(double a, double b) {
        return b == 0 ? 0 : round(a / b);
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Each progress line carries the seconds since the driver started, so a log shows where the time went. */
    private static void progress(String format, Object... args) {
        System.out.printf(Locale.ROOT, "bench: [%6.1f s] " + format + "%n", prepend((System.nanoTime() - STARTED) / 1e9,
                args));
        System.out.flush();
    }

    /**
     * The command line.
     *
     * @param help        print the usage and stop
     * @param smoke       CI sizes: every part, tiny, about a second each
     * @param small       every row the targets need, small and short (a quick look, not the record)
     * @param out         the JSON file
     * @param markdown    the Markdown file, or null
     * @param only        the parts to run (empty: all)
     * @param filterNodes cluster sizes of the filter rows instead of the default ones (empty: the default)
     * @param replicaJvm  the JVM options of each replica's process
     * @param warmup      every row's warm-up instead of the default one, or null
     * @param window      every row's measured window instead of the default one, or null
     * @param delays      the device-plugin delays of the cycle rows instead of the default ones (empty: the default)
     * @param rows        the cycle part's rows to run, by id (empty: all but {@value #ONE_ENTRY}, which runs only when
     *                    named)
     * @param livePodsPerNode allocated pods per node the cycle rows keep alive, the sink deleting the oldest beyond
     *                    them (0: every pod stays placed and the cluster fills)
     */
    record BenchArgs(boolean help, boolean smoke, boolean small, Path out, Path markdown, List<String> only,
                     List<Integer> filterNodes, List<String> replicaJvm, Duration warmup,
                     Duration window, List<Long> delays, List<String> rows, int livePodsPerNode) {

        /**
         * The cycle rows' live pods per node by default: a 500-node cluster keeps 5,000 pods, so that no row fills it
         * however long it warms up, and each row's pods are deleted as they are in a cluster.
         */
        static final int LIVE_PODS_PER_NODE = 10;

        static final String USAGE = """
                Benchmark [--smoke | --small] [--only PARTS] [--filter-nodes N,...] [--replica-jvm OPTION,...]
                          [--warmup SECONDS] [--window SECONDS] [--delays MS,...] [--rows ID,...]
                          [--live-pods-per-node N] [--out FILE] [--markdown FILE]
                  parts: filter, cycle, fanout, binpack, mock, heap (default: all); replica-heap: the
                         heap part's 3-replica row alone
                  --smoke        CI sizes: every part, tiny, about a second each
                  --small        every row the targets need at small sizes, a few minutes (not the record)
                  --filter-nodes cluster sizes of the /filter rows (default 500,5000,10000)
                  --replica-jvm  JVM options of each gateway replica's own JVM, comma-separated (a comma
                                 not followed by '-' stays inside its option) (default %s)
                  --warmup       every row's warm-up in seconds (default 20 s per /filter row, 40 s per cycle row)
                  --window       every row's measured window in seconds (default 12 s per /filter row, 20 s per
                                 cycle row)
                  --delays       device-plugin delays of the cycle rows in ms (default 0,200)
                  --rows         the cycle part's rows by id, e.g. cycle-r3-k1-d0,ceiling-cycle-k1 (default: all
                                 but cycle-r3-k1-d0-entry1: 3 replicas, every request to one; only when named)
                  --live-pods-per-node allocated pods per node the cycle rows keep alive: the sink deletes the
                                 oldest beyond them, and every replica ingests the delete (default %d; 0: pods stay
                                 placed, and 500 nodes fill at about 31,000)
                  --out          benchmark.json (default loadtest/target/benchmark.json)
                  --markdown     the tables of docs/benchmarks.md
                Every gateway replica and the bare endpoint run in JVMs of their own; this JVM only drives the load
                and plays the API server (the fast API sink), except for the /filter rows and the cycle row marked
                "sink in its JVM", where one replica holds the sink. benchmark.json holds every row, the machine (cores,
                load average at the start and the end), the commit, and each target of issue 14 with met true|false.
                """.formatted(String.join(",", Benchmark.REPLICA_JVM), LIVE_PODS_PER_NODE);

        boolean wants(String part) {
            return only.isEmpty() || only.contains(part);
        }

        boolean wantsRow(String id) {
            return rows.isEmpty() || rows.contains(id);
        }

        static BenchArgs parse(String[] args) {
            boolean help = false;
            boolean smoke = false;
            boolean small = false;
            Path out = Path.of("loadtest/target/benchmark.json");
            Path markdown = null;
            List<String> only = List.of();
            List<Integer> filterNodes = List.of();
            List<String> replicaJvm = Benchmark.REPLICA_JVM;
            Duration warmup = null;
            Duration window = null;
            List<Long> delays = List.of();
            List<String> rows = List.of();
            int livePodsPerNode = LIVE_PODS_PER_NODE;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--help", "-h" -> help = true;
                    case "--smoke" -> smoke = true;
                    case "--small" -> small = true;
                    case "--out" -> out = Path.of(args[++i]);
                    case "--markdown" -> markdown = Path.of(args[++i]);
                    case "--only" -> only = List.of(args[++i].split(","));
                    case "--filter-nodes" -> filterNodes = java.util.Arrays.stream(args[++i].split(","))
                            .map(Integer::valueOf).toList();
                    // split only at a comma before the next option's dash, so one option may hold commas
                    // (-XX:StartFlightRecording=filename=f.jfr,settings=profile)
                    case "--replica-jvm" -> replicaJvm = List.of(args[++i].trim().split(",(?=-)"));
                    case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--window" -> window = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--delays" -> delays = java.util.Arrays.stream(args[++i].split(","))
                            .map(Long::valueOf).toList();
                    case "--rows" -> rows = List.of(args[++i].split(","));
                    case "--live-pods-per-node" -> livePodsPerNode = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "\n" + USAGE);
                }
            }
            return new BenchArgs(help, smoke, small, out, markdown, only, filterNodes, replicaJvm, warmup, window,
                    delays, rows, livePodsPerNode);
        }
    }
}
