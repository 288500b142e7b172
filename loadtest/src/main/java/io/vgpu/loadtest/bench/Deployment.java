package io.vgpu.loadtest.bench;

import io.vertx.core.Future;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.simulate.SyntheticNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code replicas} gateway replicas ({@link BenchReplica}) forming one Hazelcast cluster on loopback, on one
 * {@link FastApiSink} seeded with the synthetic nodes; ready once every replica sees every node registered.
 */
final class Deployment implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final FastApiSink sink;
    private final List<BenchReplica> replicas;

    private Deployment(FastApiSink sink, List<BenchReplica> replicas) {
        this.sink = sink;
        this.replicas = replicas;
    }

    static Deployment start(List<SyntheticNode> nodes, int replicaCount, Duration allocateDelay, String nodePolicy)
            throws Exception {
        return start(nodes, replicaCount, allocateDelay, nodePolicy, SchedulingConfig.DEFAULTS.reservationTtl());
    }

    /**
     * As above, with reservations that live {@code reservationTtl}: the filter-only rows never bind, and with the
     * default TTL their reservations would fill the cluster within the run (every later filter a "no fit").
     */
    static Deployment start(List<SyntheticNode> nodes, int replicaCount, Duration allocateDelay, String nodePolicy,
                            Duration reservationTtl) throws Exception {
        FastApiSink sink = new FastApiSink(allocateDelay);
        List<BenchReplica> started = new ArrayList<>();
        try {
            for (SyntheticNode n : nodes) {
                sink.createNode(n.name(), n.annotations(), Benchmark.virtualDevices(n));
            }
            String cluster = Benchmark.newClusterName();
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < replicaCount; i++) {
                ports.add(Benchmark.freePort());
            }
            List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
            for (int i = 0; i < replicaCount; i++) {
                started.add(BenchReplica.start(i, Benchmark.store(cluster, ports.get(i), members), sink, nodePolicy,
                        "spread", reservationTtl));
            }
            for (BenchReplica r : started) {
                r.awaitNodes(nodes.size(), READY_TIMEOUT);
            }
            return new Deployment(sink, started);
        } catch (Exception | Error e) {
            started.forEach(BenchReplica::close);
            sink.close();
            throw e;
        }
    }

    FastApiSink sink() {
        return sink;
    }

    BenchReplica replica(int i) {
        return replicas.get(i);
    }

    /** The replicas' API ports. */
    int[] ports() {
        return replicas.stream().mapToInt(BenchReplica::port).toArray();
    }

    /** Creates the pod in the sink (the API server's create, before kube-scheduler sees it). */
    Future<PodSpec> create(PodSpec pod) {
        sink.createPod(pod);
        return Future.succeededFuture(pod);
    }

    @Override
    public void close() {
        for (int i = replicas.size() - 1; i >= 0; i--) {
            replicas.get(i).close();
        }
        sink.close();
    }
}
