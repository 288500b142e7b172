package io.vgpu.loadtest.bench;

import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.store.HazelcastClusterState;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One benchmark replica in a JVM of its own, so that the gateway's GC and threads are the only ones in its process
 * (and its CPU time is the process's): a {@link BenchReplica} on a {@link RemoteSink} to the driver's
 * {@link SinkServer}, or on a {@link FastApiSink} of its own (one-replica rows; see {@link Sink}). Started by {@link ReplicaProcess}; talks over its standard streams:
 * <ul>
 *   <li>prints {@code READY <api port>} once its view holds every node and every placed pod's charge;</li>
 *   <li>{@code fanout-start} / {@code fanout-stop} on stdin start and stop its {@link FanOutMeter}; the stop prints
 *       {@code FANOUT <events> <mean event bytes>};</li>
 *   <li>{@code ingest} prints {@code INGEST <ingest's calls to the shared state in flight>} (0 once the informers'
 *       changes have all been stored: {@link HopTimes#inFlight});</li>
 *   <li>{@code heap} prints {@code HEAP <used bytes after full GC> <max heap bytes>} ({@link HeapReport});
 *       {@code heap-without-mirror} empties the informer mirror first (its objects become garbage unless the
 *       state still refers to them) and then measures: the heap rows' last command, the replica is no longer
 *       fit to serve after it;</li>
 *   <li>{@code quit} or the end of stdin shuts it down.</li>
 * </ul>
 * Usage: {@code ReplicaMain <index> <cluster> <hazelcast port> <members,...> <node policy> <reservation ttl ms>
 * <sink port | in-process:<device plugin delay ms>[:<live pods>]> <nodes> <placed pods>}; with the sink in process, {@code READY}
 * also names the port of its {@link SinkServer}.
 */
public final class ReplicaMain {

    /** A minute inside the driver's wait ({@link Deployment#READY_TIMEOUT}), so that the replica says why first. */
    private static final Duration READY_TIMEOUT = Deployment.READY_TIMEOUT.minusMinutes(1);
    /** The sink argument that puts the API stand-in into this JVM ({@link Sink#inProcess}). */
    static final String IN_PROCESS = "in-process:";

    private ReplicaMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception | Error e) {
            // Hazelcast's threads would keep a broken replica alive: say why and end it, so the driver stops waiting
            e.printStackTrace();
            System.out.println("ERROR " + e);
            System.out.flush();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        Logs.quiet();
        int index = Integer.parseInt(args[0]);
        List<String> members = List.of(args[3].split(","));
        int nodes = Integer.parseInt(args[7]);
        long placed = Long.parseLong(args[8]);
        Sink sink = args[6].startsWith(IN_PROCESS) ? Sink.inProcess(nodes, placed, args[6])
                : Sink.remote(Integer.parseInt(args[6]), nodes, placed);
        BenchReplica replica = BenchReplica.start(index, Benchmark.store(args[1], Integer.parseInt(args[2]), members),
                sink.api(), args[4], "spread", Duration.ofMillis(Long.parseLong(args[5])));
        replica.awaitNodes(nodes, READY_TIMEOUT);
        awaitCharges(replica.state(), sink.api(), placed);
        FanOutMeter fanOut = new FanOutMeter(replica.state());
        System.out.println("READY " + replica.port() + sink.readyTail());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
            switch (line) {
                case "fanout-start" -> fanOut.start();
                case "fanout-stop" -> {
                    fanOut.stop();
                    System.out.printf(Locale.ROOT, "FANOUT %d %.1f%n", fanOut.events(), fanOut.meanEventBytes());
                    System.out.flush();
                }
                case "hops-start" -> replica.hops().reset();
                case "hops" -> {
                    System.out.println(replica.hops().line());
                    System.out.flush();
                }
                case "ingest" -> {
                    System.out.println("INGEST " + replica.ingestPending());
                    System.out.flush();
                }
                case "heap" -> {
                    System.out.println(HeapReport.line());
                    System.out.flush();
                }
                case "heap-without-mirror" -> {
                    // the last command of a heap row: what the informer mirror alone kept is the difference
                    sink.dropMirror();
                    System.out.println(HeapReport.line());
                    System.out.flush();
                }
                default -> System.out.println("ERROR unknown command " + line);
            }
        }
        fanOut.close();
        replica.close();
        sink.close();
        System.exit(0);
    }

    /**
     * Where this replica's Kubernetes ports lead: the driver's sink over loopback HTTP ({@link RemoteSink}), or, for the
     * one-replica rows that measure the gateway against an API as fast as a map, a {@link FastApiSink} in this JVM,
     * seeded with the same synthetic nodes and served on a port of its own so that the driver can create pods.
     */
    private record Sink(ApiStandIn api, String readyTail, AutoCloseable... closers) {

        static Sink remote(int port, int nodes, long placed) throws Exception {
            RemoteSink remote = RemoteSink.connect(port);
            awaitMirror(remote, nodes, placed);
            return new Sink(remote, "", remote);
        }

        /** @param spec {@code in-process:<device plugin delay ms>[:<live pods>]} ({@link FastApiSink}'s bound) */
        static Sink inProcess(int nodes, long placed, String spec) throws Exception {
            if (placed > 0) {
                throw new IllegalArgumentException("an in-process sink starts without placed pods");
            }
            String[] f = spec.substring(IN_PROCESS.length()).split(":");
            FastApiSink local = new FastApiSink(Duration.ofMillis(Long.parseLong(f[0])),
                    f.length > 1 ? Integer.parseInt(f[1]) : 0);
            for (var n : Benchmark.cluster(nodes)) {
                local.createNode(n.name(), n.annotations(), Benchmark.virtualDevices(n));
            }
            SinkServer server = SinkServer.start(local);
            return new Sink(local, " " + server.port(), server, local);
        }

        /** Empties the informer mirror ({@link RemoteSink#dropMirror}); an in-process sink is no mirror. */
        void dropMirror() throws Exception {
            if (!(api instanceof RemoteSink remote)) {
                throw new IllegalStateException("the sink is in this process: there is no informer mirror to drop");
            }
            remote.dropMirror();
        }

        void close() throws Exception {
            for (AutoCloseable c : closers) {
                c.close();
            }
        }
    }

    private static void awaitMirror(RemoteSink sink, int nodes, long pods) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (sink.mirrored()[0] < nodes || sink.mirrored()[1] < pods) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sink's list did not arrive: " + sink.mirrored()[0] + " nodes, "
                        + sink.mirrored()[1] + " pods");
            }
            Thread.sleep(20);
        }
    }

    /**
     * Waits until the local view shows every placed pod (the cluster filled to its density): each placed pod holds
     * one slot of one GPU, and the view (the node summaries) counts used slots; the charges themselves live with
     * each node key's owner only.
     */
    private static void awaitCharges(HazelcastClusterState state, ApiStandIn sink, long pods) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (pods > 0) {
            long charged = 0;
            for (var node : sink.nodes()) {
                NodeView v = state.node(node.name());
                charged += v == null ? 0 : v.devices().stream().mapToLong(DeviceUsage::used).sum();
            }
            if (charged >= pods) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + charged + " of " + pods + " placed pods charged; "
                        + ViewLag.describe(state, sink, pods / Math.max(1, sink.nodes().size())));
            }
            Thread.sleep(50);
        }
    }
}
