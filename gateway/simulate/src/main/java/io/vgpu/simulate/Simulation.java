package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.simulate.report.ReportRun;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Runs pods through the scheduling core against an in-process {@link InMemoryClusterState}: webhook
 * decision → request derivation → filter decision → atomic reserve (falling back to the next-best
 * node when the state refuses, as the gateway does), and measures the outcome. Single-threaded and
 * deterministic for a seed. This is {@code simulate --mode core}; {@link GatewaySimulation} runs the real
 * gateway over HTTP instead.
 */
public final class Simulation {

    /** How many ranked nodes a decision tries before giving up (the gateway's bound too). */
    static final int RESERVE_ATTEMPTS = 3;

    private final WebhookDecider webhook;
    private final FilterDecider filter;
    private final RequestDeriver requests;

    /**
     * @param webhook the admission decision
     * @param filter  the filter decision
     */
    public Simulation(WebhookDecider webhook, FilterDecider filter) {
        this.webhook = webhook;
        this.filter = filter;
        this.requests = new RequestDeriver(filter.config().nvidia());
    }

    /**
     * @param nodes    the synthetic cluster
     * @param workload the pods to submit, in order
     * @param progress called with the number of pods done after each pod
     */
    public SimulationReport run(List<SyntheticNode> nodes, List<PodSpec> workload, IntConsumer progress) {
        Cluster cluster = Cluster.of(nodes);
        return placeAll(cluster, workload, progress);
    }

    /**
     * {@code simulate --mode core --report}: the same run (same steps, same outcomes for a seed), its in-process
     * state watched by a {@link ReportRecorder} as the pods are placed.
     *
     * @param label    the run's name in the report
     * @param nodes    the synthetic cluster
     * @param workload the pods to submit, in order
     * @param progress called with the number of pods done after each pod
     * @return the summary and what the report draws
     */
    public ReportRun run(String label, List<SyntheticNode> nodes, List<PodSpec> workload, IntConsumer progress) {
        Cluster cluster = Cluster.of(nodes);
        ReportRecorder recorder = new ReportRecorder(label, workload, cluster.state()::nodes);
        return recorder.finish(placeAll(cluster, workload, recorder.progress(progress, true)));
    }

    /** The synthetic nodes registered in a fresh in-process state, and the names of those with GPUs. */
    private record Cluster(InMemoryClusterState state, List<String> names) {
        static Cluster of(List<SyntheticNode> nodes) {
            InMemoryClusterState state = new InMemoryClusterState();
            List<String> names = new ArrayList<>(nodes.size());
            for (SyntheticNode n : nodes) {
                NodeView view = FilterDecider.idleView(n.name(), n.annotations());
                if (view != null) {
                    state.registerNode(NodeInventory.ofIdle(view));
                    names.add(n.name());
                }
            }
            return new Cluster(state, names);
        }
    }

    /** Places every pod of the workload in order and measures the outcome. */
    private SimulationReport placeAll(Cluster cluster, List<PodSpec> workload, IntConsumer progress) {
        InMemoryClusterState state = cluster.state();
        List<String> names = cluster.names();
        NvidiaConfig nvidia = filter.config().nvidia();
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        long[] latencies = new long[workload.size()];
        List<Long> perGpuMemory = new ArrayList<>();
        Map<String, Integer> failures = new HashMap<>();
        int placed = 0;
        long medianCardMiB = Measures.medianCardMemory(state.nodes());
        long started = System.nanoTime();
        for (int i = 0; i < workload.size(); i++) {
            long t0 = System.nanoTime();
            String failure = place(workload.get(i), names, state, quotas, perGpuMemory, medianCardMiB);
            latencies[i] = System.nanoTime() - t0;
            if (failure == null) {
                placed++;
            } else {
                failures.merge(failure, 1, Integer::sum);
            }
            progress.accept(i + 1);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long reference = Measures.median(perGpuMemory);
        return new SimulationReport("core (in-process decisions, no HTTP, no Kubernetes API)", names.size(),
                Measures.gpuCount(state.nodes()), workload.size(), placed, failures, 0, seconds,
                List.of(Measures.latency("decision", latencies)), Measures.utilisation(state.nodes(), true),
                Measures.utilisation(state.nodes(), false), reference,
                Fragmentation.of(state.nodes(), Math.max(1, reference)));
    }

    /** Places one pod; returns null on success, else the failure reason. */
    private String place(PodSpec pod, List<String> names, InMemoryClusterState state, QuotaBook quotas,
                         List<Long> perGpuMemory, long medianCardMiB) {
        AdmissionDecision admission = webhook.decide(pod, quotas);
        if (admission instanceof AdmissionDecision.Denied denied) {
            return "webhook denied: " + denied.message();
        }
        if (admission instanceof AdmissionDecision.Errored errored) {
            return "webhook error: " + errored.message();
        }
        AdmissionDecision.Allowed allowed = (AdmissionDecision.Allowed) admission;
        PodSpec admitted = allowed.podAfter();
        recordRequest(admitted, perGpuMemory, medianCardMiB);
        FilterDecision decision = filter.decide(admitted, names, state::node, quotas);
        if (decision instanceof FilterDecision.Fits fits) {
            int tries = Math.min(RESERVE_ATTEMPTS, fits.ranked().size());
            for (int t = 0; t < tries; t++) {
                Candidate c = fits.ranked().get(t);
                PodRef ref = new PodRef(admitted.uid(), admitted.namespace(), admitted.name());
                if (state.reserve(c.node(), ref, c.allocation(), 0, Long.MAX_VALUE)
                        .toCompletableFuture().join().isReserved()) {
                    quotas.addUsage(admitted.namespace(), c.allocation().grants());
                    return null;
                }
            }
            return "reservation refused";
        }
        if (decision instanceof FilterDecision.NoFit noFit) {
            return FailureReasons.dominantOf(noFit.rejected());
        }
        if (decision instanceof FilterDecision.Failed f) {
            return f.message();
        }
        return "no GPU requested";
    }

    private void recordRequest(PodSpec pod, List<Long> perGpuMemory, long medianCardMiB) {
        Long mem = Measures.perGpuMemory(requests, pod, medianCardMiB);
        if (mem != null) {
            perGpuMemory.add(mem);
        }
    }
}
