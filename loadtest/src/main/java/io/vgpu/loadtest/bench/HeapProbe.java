package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.accounting.AccountingFeed;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.scheduling.LockWaits;
import io.vgpu.gateway.scheduling.NodeLocks;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.gateway.scheduling.StateIngest;
import io.vgpu.simulate.ClusterGenerator;
import io.vgpu.simulate.ClusterSpec;
import io.vgpu.simulate.GpuModel;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.StoreConfig;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The heap figure, run in a JVM of its own ({@code -Xmx512m}, forked by {@link Benchmark}): one gateway replica's
 * state at {@code nodes} nodes × 8 GPUs and {@code pods} placed pods, built through the informer path (node and pod
 * events into StateIngest and the quota feed, as the informers deliver them after a restart), plus the informers'
 * trimmed caches (one {@link NodeObservation} per node, one {@link ObservedPod} per pod), then the filter's verdict
 * cache filled to its bound (8 pod shapes scored on every node). Prints one JSON line: used heap after a full GC
 * ({@link HeapReport}) at each of those points.
 *
 * <p>Usage: {@code HeapProbe <nodes> <pods>}.
 */
public final class HeapProbe {

    private static final int BATCH = 1_000;
    /** Pod shapes the filter's verdict cache keeps at most (its default bound). */
    static final int VERDICT_SHAPES = 8;

    private HeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("hazelcast.logging.type", "none");
        int nodeCount = Integer.parseInt(args[0]);
        int podCount = Integer.parseInt(args[1]);
        long t0 = System.nanoTime();
        HazelcastClusterState state = HazelcastClusterState.start(new StoreConfig("vgpu-heap-" + UUID.randomUUID(),
                List.of(), "127.0.0.1", 5701, 1, 0, 0));
        state.ready().toCompletableFuture().join();
        NvidiaConfig nvidia = NvidiaConfig.defaults();
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        FastApiSink api = new FastApiSink(Duration.ZERO);
        // ingest only: no bind waits for a lock here, so the node locks need no Vert.x
        NodeLocks locks = new NodeLocks(null, state, api, SchedulingConfig.DEFAULTS, Clock.systemUTC(),
                LockWaits.NONE);
        StateIngest stateIngest = new StateIngest(state, NodeHealth.ALWAYS, api, locks);
        ClusterEvents ingest = ClusterEvents.fanOut(List.of(new AccountingFeed(new PodTracker(quotas), quotas),
                stateIngest));
        Map<String, NodeObservation> nodeCache = new ConcurrentHashMap<>();
        Map<String, ObservedPod> podCache = new ConcurrentHashMap<>();
        long baseline = HeapReport.usedAfterGc();

        List<SyntheticNode> nodes = cluster(nodeCount);
        for (SyntheticNode n : nodes) {
            NodeObservation o = new NodeObservation(n.name(), n.annotations(), 80, "1");
            nodeCache.put(n.name(), o);
            ingest.nodeUpserted(o);
        }
        // a node's first registration waits for its bound pods (none listed yet here), as IngestRepair's tick does it
        stateIngest.registerAwaiting(new NodesOnly(nodeCache)).toCompletableFuture().join();
        while (state.nodes().size() < nodeCount) {
            Thread.sleep(50);
        }
        long withNodes = HeapReport.usedAfterGc();

        // trimmed as the informers trim them (KubeObjects.pod ends with ObservedPods.canonical)
        List<ObservedPod> placed = PlacedPods.spread(nodes, podCount);
        for (ObservedPod pod : placed) {
            podCache.put(pod.spec().namespace() + "/" + pod.spec().name(), pod);
        }
        long withCaches = HeapReport.usedAfterGc();
        for (int from = 0; from < podCount; from += BATCH) {
            int to = Math.min(podCount, from + BATCH);
            for (int i = from; i < to; i++) {
                ingest.podAdded(placed.get(i));
            }
            awaitCharged(state, nodes, to);
        }
        placed = null;
        long withPods = HeapReport.usedAfterGc();
        // the filter's per-node verdict cache at its bound: 8 pod shapes, each scored on every node
        FilterDecider decider = new FilterDecider(FilterConfig.defaults());
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        for (int shape = 0; shape < VERDICT_SHAPES; shape++) {
            decider.decide(shapedPod(shape), names, state::node, quotas);
        }
        long withVerdicts = HeapReport.usedAfterGc();
        Reference.reachabilityFence(decider);
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        System.out.printf(Locale.ROOT, "{\"nodes\":%d,\"gpus\":%d,\"pods\":%d,\"heapMaxMiB\":%.1f,"
                        + "\"usedAfterGcMiB\":{\"member\":%.1f,\"nodes\":%.1f,\"podCaches\":%.1f,\"nodesAndPods\":%.1f,"
                        + "\"withVerdictCache\":%.1f},"
                        + "\"podCache\":%d,\"nodeCache\":%d,\"seconds\":%.1f}%n", nodeCount, nodeCount * 8, podCount,
                HeapReport.mib(max), HeapReport.mib(baseline), HeapReport.mib(withNodes), HeapReport.mib(withCaches),
                HeapReport.mib(withPods), HeapReport.mib(withVerdicts), podCache.size(), nodeCache.size(),
                (System.nanoTime() - t0) / 1e9);
        System.out.flush();
        // -Dvgpu.heap.hold=SECONDS keeps the state alive for a look with jcmd GC.class_histogram
        Thread.sleep(1000L * Integer.getInteger("vgpu.heap.hold", 0));
        state.shutdown().toCompletableFuture().join();
        System.exit(0);
    }

    /** A pending pod of shape {@code shape}: 1 GPU, 1–4 GiB, with or without an init container. */
    private static PodSpec shapedPod(int shape) {
        return shapedPod(shape, "");
    }

    /** As above, its name and UID ending in {@code suffix} (a pod per replica). */
    static PodSpec shapedPod(int shape, String suffix) {
        List<Container> init = shape < VERDICT_SHAPES / 2 ? List.of()
                : List.of(new Container("init", Map.of(), Map.of(), false, List.of()));
        return new PodSpec("pending-" + shape + suffix, "pending", "uid-pending-" + shape + suffix, "hami-scheduler",
                "", null, Map.of(),
                Map.of(), init, List.of(new Container("main", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem",
                Integer.toString(1024 * (1 + shape % 4))), Map.of(), false, List.of())));
    }

    /** The heap rows' cluster: {@code nodes} × 8 GPUs (A100-80GB, H100, L4 round robin), 10 shares per GPU. */
    static List<SyntheticNode> cluster(int nodes) {
        return ClusterGenerator.generate(new ClusterSpec(nodes, 8, List.of(GpuModel.byName("A100-SXM4-80GB"),
                GpuModel.byName("H100"), GpuModel.byName("L4")), 10, 4), 7);
    }

    private static void awaitCharged(HazelcastClusterState state, List<SyntheticNode> nodes, int pods)
            throws InterruptedException {
        while (true) {
            long charged = 0;
            for (SyntheticNode n : nodes) {
                NodeState s = state.nodeState(n.name());
                charged += s == null ? 0 : s.charges().size();
            }
            if (charged >= pods) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /** The informer caches at the moment the nodes are listed and no pod is yet. */
    private record NodesOnly(Map<String, NodeObservation> byName) implements ClusterCache {

        @Override
        public Optional<ObservedPod> pod(String namespace, String name) {
            return Optional.empty();
        }

        @Override
        public Optional<NodeObservation> node(String name) {
            return Optional.ofNullable(byName.get(name));
        }

        @Override
        public Collection<NodeObservation> nodes() {
            return List.copyOf(byName.values());
        }

        @Override
        public Collection<ObservedPod> pods() {
            return List.of();
        }

        @Override
        public boolean hasSynced() {
            return true;
        }
    }
}
