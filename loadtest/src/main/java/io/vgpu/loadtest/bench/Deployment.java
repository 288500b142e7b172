package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.scheduling.SchedulingConfig;
import io.vgpu.simulate.SyntheticNode;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * {@code replicas} gateway replicas, each in a JVM of its own ({@link ReplicaMain}), forming one Hazelcast cluster
 * on loopback, on one {@link FastApiSink} in the driver's JVM seeded with the synthetic nodes (and, for the density
 * rows, placed pods) and served to them by a {@link SinkServer}; ready once every replica sees every node registered
 * and every placed pod charged. The driver reads each replica's CPU time from the OS ({@link ProcCpu}), asks
 * replica 0 for the fan-out it received, and the heap rows ask every replica for its heap.
 */
final class Deployment implements AutoCloseable {

    /**
     * How long the driver waits for a replica's {@code READY}: 6 minutes, or {@code -Dbench.readyMinutes} (give the
     * replicas' JVMs the same option): a full-size heap row beside other work on 2 cores needs longer.
     */
    static final Duration READY_TIMEOUT = Duration.ofMinutes(Long.getLong("bench.readyMinutes", 6));

    private final FastApiSink sink;
    private final SinkServer server;
    private final List<ReplicaProcess> replicas;
    private final int[] ports;
    private final InReplicaSink inReplica;

    private Deployment(FastApiSink sink, SinkServer server, List<ReplicaProcess> replicas, int[] ports,
                       InReplicaSink inReplica) {
        this.sink = sink;
        this.server = server;
        this.replicas = replicas;
        this.ports = ports;
        this.inReplica = inReplica;
    }

    /**
     * The sink in the replica's JVM, which the driver reaches over loopback HTTP for its own calls (a user's create,
     * the write count).
     *
     * @param http the driver's client
     * @param port the replica's {@link SinkServer}
     */
    private record InReplicaSink(BenchHttp http, int port) {

        Future<PodSpec> create(PodSpec pod) {
            ObjectNode call = SinkWire.JSON.createObjectNode().put("op", "create");
            call.set("pod", SinkWire.JSON.valueToTree(pod));
            return http.post(port, "/call", Buffer.buffer(call.toString())).compose(reply ->
                    reply.status() == 200 ? Future.succeededFuture(pod)
                            : Future.failedFuture("the replica's sink refused the create: HTTP " + reply.status()));
        }

        long writes() throws Exception {
            return count("writes");
        }

        long deleted() throws Exception {
            return count("deleted");
        }

        /** One of the counts the sink's {@code writes} call answers. */
        private long count(String field) throws Exception {
            return http.post(port, "/call", Buffer.buffer("{\"op\":\"writes\"}"))
                    .toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES)
                    .json().path(field).asLong();
        }
    }

    /**
     * One replica whose Kubernetes ports are a {@link FastApiSink} in its own JVM, seeded with {@code nodes}: the
     * gateway measured against an API as fast as a map (the one-replica throughput and {@code /filter} targets of issue
     * 14), at the price of the sink's work counting as the replica's CPU. Several replicas need one shared API, so
     * only one replica can run this way.
     *
     * @param livePods allocated pods the sink keeps alive before deleting the oldest ({@link FastApiSink}); 0: all
     */
    static Deployment startWithSinkInReplica(List<SyntheticNode> nodes, Duration allocateDelay, String nodePolicy,
                                             Duration reservationTtl, int livePods, List<String> jvmOptions,
                                             BenchHttp http) throws Exception {
        String cluster = Benchmark.newClusterName();
        int hzPort = Benchmark.freePort();
        ReplicaProcess replica = ReplicaProcess.start("replica-0", jvmOptions, ReplicaMain.class, List.of("0", cluster,
                Integer.toString(hzPort), "127.0.0.1:" + hzPort, nodePolicy, Long.toString(reservationTtl.toMillis()),
                ReplicaMain.IN_PROCESS + allocateDelay.toMillis() + ":" + livePods, Integer.toString(nodes.size()), "0"));
        try {
            String[] ready = replica.await("READY", READY_TIMEOUT).trim().split(" ");
            return new Deployment(null, null, List.of(replica), new int[] {Integer.parseInt(ready[0])},
                    new InReplicaSink(http, Integer.parseInt(ready[1])));
        } catch (Exception | Error e) {
            replica.close();
            throw e;
        }
    }

    /**
     * Starts the replicas.
     *
     * @param reservationTtl how long a filter's reservation lives: the filter-only rows never bind, and with the
     *                       default TTL their reservations would fill the cluster within the run
     * @param placed         pods already bound and allocated before the replicas start (the cluster's density)
     * @param livePods       allocated pods the sink keeps alive before deleting the oldest ({@link FastApiSink});
     *                       0: every pod stays placed
     * @param jvmOptions     the replicas' JVM options
     */
    static Deployment start(List<SyntheticNode> nodes, int replicaCount, Duration allocateDelay, String nodePolicy,
                            Duration reservationTtl, List<ObservedPod> placed, int livePods, List<String> jvmOptions)
            throws Exception {
        FastApiSink sink = new FastApiSink(allocateDelay, livePods);
        SinkServer server = null;
        List<ReplicaProcess> started = new ArrayList<>();
        try {
            for (SyntheticNode n : nodes) {
                sink.createNode(n.name(), n.annotations(), Benchmark.virtualDevices(n));
            }
            placed.forEach(sink::createPlaced);
            server = SinkServer.start(sink);
            String cluster = Benchmark.newClusterName();
            List<Integer> hzPorts = new ArrayList<>();
            for (int i = 0; i < replicaCount; i++) {
                hzPorts.add(Benchmark.freePort());
            }
            String members = String.join(",", hzPorts.stream().map(p -> "127.0.0.1:" + p).toList());
            for (int i = 0; i < replicaCount; i++) {
                started.add(ReplicaProcess.start("replica-" + i, jvmOptions, ReplicaMain.class, List.of(
                        Integer.toString(i), cluster, Integer.toString(hzPorts.get(i)), members, nodePolicy,
                        Long.toString(reservationTtl.toMillis()), Integer.toString(server.port()),
                        Integer.toString(nodes.size()), Integer.toString(placed.size()))));
            }
            int[] ports = new int[replicaCount];
            for (int i = 0; i < replicaCount; i++) {
                ports[i] = Integer.parseInt(started.get(i).await("READY", READY_TIMEOUT).trim().split(" ")[0]);
            }
            return new Deployment(sink, server, started, ports, null);
        } catch (Exception | Error e) {
            started.forEach(ReplicaProcess::close);
            if (server != null) {
                server.close();
            }
            sink.close();
            throw e;
        }
    }

    /** As above, with the default reservation TTL and no placed pods. */
    static Deployment start(List<SyntheticNode> nodes, int replicaCount, Duration allocateDelay, String nodePolicy,
                            List<String> jvmOptions) throws Exception {
        return start(nodes, replicaCount, allocateDelay, nodePolicy, SchedulingConfig.DEFAULTS.reservationTtl(),
                List.of(), 0, jvmOptions);
    }

    /** The API writes so far (patches, bindings, lock writes). */
    long apiWrites() throws Exception {
        return inReplica != null ? inReplica.writes() : sink.writes();
    }

    /** Pods the sink deleted so far to keep its live-pod bound. */
    long podsDeleted() throws Exception {
        return inReplica != null ? inReplica.deleted() : sink.deleted();
    }

    /** The replicas' API ports. */
    int[] ports() {
        return ports.clone();
    }

    /** CPU ticks of each replica process so far, in replica order; an entry is empty when it cannot be read. */
    List<OptionalLong> cpuTicksEach() {
        return replicas.stream().map(r -> ProcCpu.read(r.pid())).toList();
    }

    /** CPU ticks of every replica process's JIT compiler threads so far, summed ({@link ProcCpu#readJit}). */
    OptionalLong jitTicks() {
        return ProcCpu.readAllJit(replicas.stream().map(ReplicaProcess::pid).toList());
    }

    /** Each replica's ingest not applied yet: store calls in flight and queued changes and resync reads. */
    List<Long> ingestInFlight() throws IOException, InterruptedException {
        for (ReplicaProcess r : replicas) {
            r.send("ingest");
        }
        List<Long> out = new ArrayList<>();
        for (ReplicaProcess r : replicas) {
            out.add(Long.parseLong(r.await("INGEST", Duration.ofMinutes(1)).trim()));
        }
        return out;
    }

    /** Every replica starts counting its hops afresh ({@link HopTimes}). */
    void hopsStart() throws IOException {
        for (ReplicaProcess r : replicas) {
            r.send("hops-start");
        }
    }

    /** Every replica's hops since {@link #hopsStart()}, summed: hop to "N calls, mean X ms". */
    Map<String, String> hops() throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        for (ReplicaProcess r : replicas) {
            r.send("hops");
            lines.add(r.await("HOPS", Duration.ofMinutes(1)));
        }
        return HopTimes.summed(lines);
    }

    /** Starts counting replica 0's received change events. */
    void fanOutStart() throws IOException {
        replicas.get(0).send("fanout-start");
    }

    /**
     * Stops counting.
     *
     * @return events received and their mean serialized size in bytes
     */
    double[] fanOutStop() throws IOException, InterruptedException {
        replicas.get(0).send("fanout-stop");
        String[] f = replicas.get(0).await("FANOUT", Duration.ofMinutes(1)).trim().split(" ");
        return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])};
    }

    /**
     * Asks every replica for its heap ({@code heap}, or {@code heap-without-mirror}: see {@link ReplicaMain}), all at
     * once, each collecting in its own JVM.
     *
     * @return per replica, in order: used bytes after full GC, max heap bytes
     */
    List<long[]> heaps(String command) throws IOException, InterruptedException {
        for (ReplicaProcess r : replicas) {
            r.send(command);
        }
        List<long[]> out = new ArrayList<>();
        for (ReplicaProcess r : replicas) {
            out.add(HeapReport.parse(r.await(HeapReport.WORD, Duration.ofMinutes(2))));
        }
        return out;
    }

    /** Creates the pod in the sink (the API server's create, before kube-scheduler sees it). */
    Future<PodSpec> create(PodSpec pod) {
        if (inReplica != null) {
            return inReplica.create(pod);
        }
        sink.createPod(pod);
        return Future.succeededFuture(pod);
    }

    @Override
    public void close() {
        for (int i = replicas.size() - 1; i >= 0; i--) {
            replicas.get(i).close();
        }
        if (server != null) {
            server.close();
            sink.close();
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d replica(s) on ports %s", replicas.size(), java.util.Arrays.toString(ports));
    }
}
