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
 * {@link SinkServer}. Started by {@link ReplicaProcess}; talks over its standard streams:
 * <ul>
 *   <li>prints {@code READY <api port>} once its view holds every node and every placed pod's charge;</li>
 *   <li>{@code fanout-start} / {@code fanout-stop} on stdin start and stop its {@link FanOutMeter}; the stop prints
 *       {@code FANOUT <events> <mean event bytes>};</li>
 *   <li>{@code heap} prints {@code HEAP <used bytes after full GC> <max heap bytes>} ({@link HeapReport});
 *       {@code heap-without-mirror} empties the informer mirror first (its objects become garbage unless the
 *       state still refers to them) and then measures: the heap rows' last command, the replica is no longer
 *       fit to serve after it;</li>
 *   <li>{@code quit} or the end of stdin shuts it down.</li>
 * </ul>
 * Usage: {@code ReplicaMain <index> <cluster> <hazelcast port> <members,...> <node policy> <reservation ttl ms>
 * <sink port> <nodes> <placed pods>}.
 */
public final class ReplicaMain {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

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
        RemoteSink sink = RemoteSink.connect(Integer.parseInt(args[6]));
        awaitMirror(sink, nodes, placed);
        BenchReplica replica = BenchReplica.start(index, Benchmark.store(args[1], Integer.parseInt(args[2]), members),
                sink, args[4], "spread", Duration.ofMillis(Long.parseLong(args[5])));
        replica.awaitNodes(nodes, READY_TIMEOUT);
        awaitCharges(replica.state(), sink, placed);
        FanOutMeter fanOut = new FanOutMeter(replica.state());
        System.out.println("READY " + replica.port());
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
    private static void awaitCharges(HazelcastClusterState state, RemoteSink sink, long pods) throws InterruptedException {
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
                throw new IllegalStateException("only " + charged + " of " + pods + " placed pods charged");
            }
            Thread.sleep(50);
        }
    }
}
