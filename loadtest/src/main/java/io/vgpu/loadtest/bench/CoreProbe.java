package io.vgpu.loadtest.bench;

import com.sun.management.ThreadMXBean;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.port.SchedulerEvent;
import io.vgpu.gateway.core.port.ScoredNode;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.extender.ExtenderDecoder;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time and allocation per call of the CPU-bound steps of {@code /filter}, measured on the calling thread (so
 * other load on the machine distorts them less than wall time): decoding the request body, the pure filter decision
 * over N nodes (unchanged nodes, and one node changed before each call, as when every filter places a pod), and the {@code FilteringSucceed} event text that lists every fitting node's score. The profile-and-fix loop of docs/benchmarks.md uses it for before/after figures.
 *
 * <p>Usage: {@code CoreProbe [nodes...]} (default 500 5000 10000).
 */
public final class CoreProbe {

    private CoreProbe() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {500, 5_000, 10_000}
                : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        for (int n : sizes) {
            probe(n);
        }
    }

    static void probe(int nodeCount) {
        List<SyntheticNode> nodes = Benchmark.cluster(nodeCount);
        List<String> names = nodes.stream().map(SyntheticNode::name).toList();
        Map<String, NodeView> views = new HashMap<>();
        nodes.forEach(n -> views.put(n.name(), FilterDecider.idleView(n.name(), n.annotations())));
        FilterDecider decider = new FilterDecider(new FilterConfig(NvidiaConfig.defaults(), "binpack", "spread"));
        BenchPods pods = new BenchPods("probe", names);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        int warm = Math.max(200, 2_000_000 / nodeCount);
        int runs = Math.max(200, 4_000_000 / nodeCount);
        byte[][] bodies = new byte[16][];
        PodSpec[] specs = new PodSpec[16];
        for (int i = 0; i < bodies.length; i++) {
            specs[i] = pods.pod(i);
            bodies[i] = pods.filterArgs(specs[i]).getBytes();
        }
        long sink = 0;
        for (int i = 0; i < warm; i++) {
            sink += decode(bodies[i % 16]) + decide(decider, specs[i % 16], names, views);
        }
        long cpu0 = threads.getCurrentThreadCpuTime();
        long mem0 = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < runs; i++) {
            sink += decode(bodies[i % 16]);
        }
        long cpu1 = threads.getCurrentThreadCpuTime();
        long mem1 = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < runs; i++) {
            sink += decide(decider, specs[i % 16], names, views);
        }
        long cpu2 = threads.getCurrentThreadCpuTime();
        long mem2 = threads.getCurrentThreadAllocatedBytes();
        List<ScoredNode> ranking = ranking(decider, specs[1], names, views);
        for (int i = 0; i < runs; i++) {
            sink += SchedulerEvent.filteringSucceeded(names.get(0), names.size(), ranking).message().length();
        }
        long cpu3 = threads.getCurrentThreadCpuTime();
        long mem3 = threads.getCurrentThreadAllocatedBytes();
        // as in a running cluster: every filter places a pod, so one node has a new view before each call
        for (int i = 0; i < runs; i++) {
            String changed = names.get(i % names.size());
            NodeView v = views.get(changed);
            views.put(changed, new NodeView(v.name(), v.devices(), v.annotations(), v.pairScores()));
            sink += decide(decider, specs[i % 16], names, views);
        }
        long cpu4 = threads.getCurrentThreadCpuTime();
        long mem4 = threads.getCurrentThreadAllocatedBytes();
        // nodes with pods on them: the node scores differ, so ranking sorts for real (the idle cluster ties)
        Map<String, NodeView> loaded = loaded(views);
        for (int i = 0; i < 32; i++) {
            sink += decide(decider, specs[i % 16], names, loaded);
        }
        long cpu5 = threads.getCurrentThreadCpuTime();
        long mem5 = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < runs; i++) {
            sink += decide(decider, specs[i % 16], names, loaded);
        }
        long cpu6 = threads.getCurrentThreadCpuTime();
        long mem6 = threads.getCurrentThreadAllocatedBytes();
        System.out.printf(Locale.ROOT, "{\"nodes\":%d,\"bodyBytes\":%d,\"decodeMicros\":%.1f,\"decodeKiB\":%.1f,"
                        + "\"decideMicros\":%.1f,\"decideKiB\":%.1f,\"decideOneChangedMicros\":%.1f,"
                        + "\"decideOneChangedKiB\":%.1f,\"decideLoadedMicros\":%.1f,\"decideLoadedKiB\":%.1f,"
                        + "\"eventMicros\":%.1f,\"eventKiB\":%.1f,"
                        + "\"check\":%d}%n", nodeCount, bodies[1].length,
                (cpu1 - cpu0) / 1e3 / runs, (mem1 - mem0) / 1024.0 / runs, (cpu2 - cpu1) / 1e3 / runs,
                (mem2 - mem1) / 1024.0 / runs, (cpu4 - cpu3) / 1e3 / runs, (mem4 - mem3) / 1024.0 / runs,
                (cpu6 - cpu5) / 1e3 / runs, (mem6 - mem5) / 1024.0 / runs,
                (cpu3 - cpu2) / 1e3 / runs, (mem3 - mem2) / 1024.0 / runs, sink % 7);
    }

    /** Every node with some usage on each card: up to 2 slots and 6 GiB, different from node to node. */
    private static Map<String, NodeView> loaded(Map<String, NodeView> idle) {
        Map<String, NodeView> out = new HashMap<>();
        int[] k = {0};
        idle.forEach((name, v) -> {
            List<DeviceUsage> devices = new java.util.ArrayList<>(v.devices().size());
            for (DeviceUsage d : v.devices()) {
                int step = k[0]++ % 97;
                devices.add(d.plus(step % 3, step * 64, step % 20));
            }
            out.put(name, new NodeView(name, devices, v.annotations(), v.pairScores()));
        });
        return out;
    }

    /** The ranking FilterService hands to the FilteringSucceed event. */
    private static List<ScoredNode> ranking(FilterDecider decider, PodSpec pod, List<String> names,
                                            Map<String, NodeView> views) {
        FilterDecision d = decider.decide(pod, names, views::get, QuotaGate.NONE);
        List<ScoredNode> out = new java.util.ArrayList<>();
        if (d instanceof FilterDecision.Fits f) {
            f.ranked().forEach(c -> out.add(new ScoredNode(c.node(), c.score())));
        }
        return out;
    }

    private static int decode(byte[] body) {
        return ExtenderDecoder.filterArgs(body) instanceof ExtenderDecoder.Result.Valid<?> ? 1 : 0;
    }

    private static int decide(FilterDecider decider, PodSpec pod, List<String> names, Map<String, NodeView> views) {
        FilterDecision d = decider.decide(pod, names, views::get, QuotaGate.NONE);
        return d instanceof FilterDecision.Fits f ? f.ranked().size() : 0;
    }
}
