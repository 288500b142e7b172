package io.vgpu.gateway.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.filter.FilterDecision;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.gateway.simulate.report.ReportRun;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * {@code simulate --mode core --report}: the core run of {@link Simulation} (same steps, same order, same
 * outcomes for a seed), with its in-process state visible to a {@link ReportRecorder}, which {@link Simulation}
 * keeps to itself. Single-threaded and deterministic for a seed.
 */
public final class RecordedSimulation {

    private final WebhookDecider webhook;
    private final FilterDecider filter;
    private final RequestDeriver requests;

    /**
     * @param webhook the admission decision
     * @param filter  the filter decision
     */
    public RecordedSimulation(WebhookDecider webhook, FilterDecider filter) {
        this.webhook = webhook;
        this.filter = filter;
        this.requests = new RequestDeriver(filter.config().nvidia());
    }

    /**
     * @param label    the run's name in the report
     * @param nodes    the synthetic cluster
     * @param workload the pods to submit, in order
     * @param progress called with the number of pods done after each pod
     * @return the summary and what the report draws
     */
    public ReportRun run(String label, List<SyntheticNode> nodes, List<PodSpec> workload, IntConsumer progress) {
        InMemoryClusterState state = new InMemoryClusterState();
        List<String> names = new ArrayList<>(nodes.size());
        for (SyntheticNode n : nodes) {
            NodeView view = FilterDecider.idleView(n.name(), n.annotations());
            if (view != null) {
                state.registerNode(NodeInventory.ofIdle(view));
                names.add(n.name());
            }
        }
        NvidiaConfig nvidia = filter.config().nvidia();
        ReportRecorder recorder = new ReportRecorder(label, workload, state::nodes);
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        long[] latencies = new long[workload.size()];
        List<Long> perGpuMemory = new ArrayList<>();
        Map<String, Integer> failures = new HashMap<>();
        int placed = 0;
        long medianCardMiB = Measures.medianCardMemory(state.nodes());
        IntConsumer recording = recorder.progress(progress, true);
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
            recording.accept(i + 1);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long reference = Measures.median(perGpuMemory);
        SimulationReport summary = new SimulationReport("core (in-process decisions, no HTTP, no Kubernetes API)",
                names.size(), Measures.gpuCount(state.nodes()), workload.size(), placed, failures, 0, seconds,
                List.of(Measures.latency("decision", latencies)), Measures.utilisation(state.nodes(), true),
                Measures.utilisation(state.nodes(), false), reference,
                Fragmentation.of(state.nodes(), Math.max(1, reference)));
        return recorder.finish(summary);
    }

    /** {@link Simulation}'s placement of one pod; null on success, else the failure reason. */
    private String place(PodSpec pod, List<String> names, InMemoryClusterState state, QuotaBook quotas,
                         List<Long> perGpuMemory, long medianCardMiB) {
        AdmissionDecision admission = webhook.decide(pod, quotas);
        if (admission instanceof AdmissionDecision.Denied denied) {
            return "webhook denied: " + denied.message();
        }
        if (admission instanceof AdmissionDecision.Errored errored) {
            return "webhook error: " + errored.message();
        }
        PodSpec admitted = ((AdmissionDecision.Allowed) admission).podAfter();
        Long mem = Measures.perGpuMemory(requests, admitted, medianCardMiB);
        if (mem != null) {
            perGpuMemory.add(mem);
        }
        FilterDecision decision = filter.decide(admitted, names, state::node, quotas);
        if (decision instanceof FilterDecision.Fits fits) {
            int tries = Math.min(Simulation.RESERVE_ATTEMPTS, fits.ranked().size());
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
            return FailureReasons.dominant(noFit.failedNodes());
        }
        if (decision instanceof FilterDecision.Failed f) {
            return f.message();
        }
        return "no GPU requested";
    }
}
