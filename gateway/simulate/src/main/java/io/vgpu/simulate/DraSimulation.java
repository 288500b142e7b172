package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.simulate.report.ReportRun;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.dra.DraNames;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * {@code simulate --mode dra}: the same synthetic cluster and pod stream as extender mode, scheduled the DRA
 * way ({@link DraRun}): the webhook's admission, the translation into a claim template, the claim controller,
 * kube-scheduler's structured allocator with its node score, bind. Then the kubelet prepares the pod's claims
 * on the node: {@code --device-plugin-delay} per claim, in the background and without any lock, so the next
 * pod's cycle does not wait for it (extender mode holds the node lock for that delay). The stream's time ends
 * when the last pod is bound, as in extender mode; the prepares still running then are awaited but not counted
 * (as extender mode awaits its device plugin). Neither mode includes kube-scheduler's own cycle (queueing,
 * the other plugins). Every object goes to a simulated API server of its own (slices, class, templates,
 * claims, pods, allocations, bindings), blocking, as part of the cycle. Single driver thread; deterministic placements for a seed.
 */
public final class DraSimulation {

    private static final Duration PREPARE_WAIT = Duration.ofSeconds(120);

    private final WebhookDecider webhook;
    private final NvidiaConfig nvidia;
    private final String nodePolicy;
    private final Duration prepareDelay;

    /**
     * @param webhook      the admission decision (defaults, validation) before the translation
     * @param nvidia       resource names and defaults
     * @param nodePolicy   {@code binpack} (most GPU memory granted first) or {@code spread} (least first)
     * @param prepareDelay what the kubelet plugin spends preparing one claim
     */
    public DraSimulation(WebhookDecider webhook, NvidiaConfig nvidia, String nodePolicy, Duration prepareDelay) {
        this.webhook = webhook;
        this.nvidia = nvidia;
        this.nodePolicy = nodePolicy;
        this.prepareDelay = prepareDelay;
    }

    /** The model, in words, for the report and the table. */
    public String mode() {
        return String.format(Locale.ROOT, "dra (claim templates, claim controller, structured allocator; prepare %d ms "
                + "per claim, no lock)", prepareDelay.toMillis());
    }

    /**
     * @param nodes    the synthetic cluster (each node in DRA mode)
     * @param workload the pods to submit, in order
     * @param progress called with the number of pods done after each pod
     */
    public SimulationReport run(List<SyntheticNode> nodes, List<PodSpec> workload, IntConsumer progress) {
        return withApiServer(writes -> {
            DraRun run = new DraRun(nodes, new RequestDeriver(nvidia), nodePolicy, writes);
            return stream(run, workload, progress, inProcess(run));
        });
    }

    /** As {@link #run(List, List, IntConsumer)}, watched by a {@link ReportRecorder} for the HTML report. */
    public ReportRun run(String label, List<SyntheticNode> nodes, List<PodSpec> workload, IntConsumer progress) {
        return withApiServer(writes -> {
            DraRun run = new DraRun(nodes, new RequestDeriver(nvidia), nodePolicy, writes);
            ReportRecorder recorder = new ReportRecorder(label, workload, run::views);
            return recorder.finish(stream(run, workload, recorder.progress(progress, true), inProcess(run)));
        });
    }

    /**
     * As {@link #run(String, List, List, IntConsumer)}, but each pod is admitted by a running gateway's real
     * {@code /webhook} over HTTP ({@link DraWebhook}: annotation {@code vgpu.io/mode=dra}; the translation, the
     * quota ticket and the template are the gateway's), on a {@link SimulatedCluster} whose nodes are all in DRA
     * mode; the claim, the allocation and the binding are this module's stand-ins, as in {@link #run}.
     */
    public ReportRun runThroughGateway(String label, List<SyntheticNode> nodes, List<PodSpec> workload,
                                       IntConsumer progress) {
        List<HasMetadata> draNodes = new ArrayList<>();
        nodes.forEach(n -> draNodes.add(new NodeBuilder().withNewMetadata().withName(n.name())
                .addToLabels(DraNames.MODE_LABEL, DraNames.MODE_DRA).endMetadata().build()));
        SimulatedCluster.Settings settings = new SimulatedCluster.Settings(nodePolicy, "spread", "127.0.0.1", 0, 0, 0,
                Duration.ZERO, Map.of(), draNodes);
        try (SimulatedCluster running = SimulatedCluster.start(settings, List.of());
             KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                     .withMasterUrl(running.apiServer().url()).withRequestTimeout(30_000).build()).build()) {
            DraRun run = new DraRun(nodes, new RequestDeriver(nvidia), nodePolicy, DraWrites.to(client));
            DraWebhook gateway = new DraWebhook(running.gatewayUrl(), client);
            ReportRecorder recorder = new ReportRecorder(label, workload, run::views);
            return recorder.finish(stream(run, workload, recorder.progress(progress, true),
                    pod -> throughGateway(gateway, run, pod)));
        }
    }

    /** One pod's admission: the pod as admitted (for the per-GPU measure) and how to place it, or why not. */
    private record Admission(PodSpec admitted, Supplier<DraRun.Placement> place, String refusal) {
    }

    private static Admission inProcess(WebhookDecider webhook, QuotaBook quotas, DraRun run, PodSpec pod) {
        AdmissionDecision admission = webhook.decide(pod, quotas);
        if (admission instanceof AdmissionDecision.Allowed allowed) {
            return new Admission(allowed.podAfter(), () -> run.submit(allowed.podAfter()), null);
        }
        return new Admission(null, null, admission instanceof AdmissionDecision.Denied d
                ? "webhook denied: " + d.message()
                : "webhook error: " + ((AdmissionDecision.Errored) admission).message());
    }

    private static Admission throughGateway(DraWebhook gateway, DraRun run, PodSpec pod) {
        Map<String, String> annotations = new HashMap<>(pod.annotations());
        annotations.put(DraNames.MODE_LABEL, DraNames.MODE_DRA);
        PodSpec dra = new PodSpec(pod.name(), pod.namespace(), pod.uid(), pod.schedulerName(), pod.nodeName(),
                pod.runtimeClassName(), annotations, pod.labels(), pod.initContainers(), pod.containers());
        DraWebhook.Admission admission = gateway.admit(dra);
        if (admission instanceof DraWebhook.Admission.Admitted a) {
            return new Admission(dra, () -> run.submitAdmitted(a.pod(), a.entry(), a.template()), null);
        }
        return new Admission(null, null, ((DraWebhook.Admission.NotAdmitted) admission).reason());
    }

    /**
     * Runs {@code body} with its objects written to a fresh simulated API server, as kube-scheduler and the claim
     * controller write theirs (the writes are part of each pod's cycle, as the gateway's are in extender mode).
     */
    private static <T> T withApiServer(Function<DraWrites, T> body) {
        try (SimulatedApiServer api = SimulatedApiServer.start(0);
             KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                     .withMasterUrl(api.url()).withRequestTimeout(30_000).build()).build()) {
            return body.apply(DraWrites.to(client));
        }
    }

    /** The webhook decision in-process, then the gateway's translator (no quota: the simulator has none). */
    private Function<PodSpec, Admission> inProcess(DraRun run) {
        QuotaBook quotas = new QuotaBook(nvidia.resourceMemoryName(), nvidia.resourceCoreName(),
                nvidia.effectiveMemoryFactor());
        return pod -> inProcess(webhook, quotas, run, pod);
    }

    private SimulationReport stream(DraRun run, List<PodSpec> workload, IntConsumer progress,
                                    Function<PodSpec, Admission> admitter) {
        RequestDeriver requests = new RequestDeriver(nvidia);
        int n = workload.size();
        long[] admit = new long[n];
        long[] schedule = new long[n];
        long[] cycle = new long[n];
        AtomicLongArray prepared = new AtomicLongArray(n);
        Map<String, Integer> failures = new HashMap<>();
        List<Long> perGpu = new ArrayList<>();
        long medianCard = Measures.medianCardMemory(run.views());
        Phaser preparing = new Phaser(1);
        ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "simulate-dra-kubelet");
            t.setDaemon(true);
            return t;
        });
        int placed = 0;
        int bound = 0;
        long started = System.nanoTime();
        try {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                Admission admission = admitter.apply(workload.get(i));
                long t1 = System.nanoTime();
                admit[i] = t1 - t0;
                String failure = admission.refusal();
                if (failure == null) {
                    Long mem = Measures.perGpuMemory(requests, admission.admitted(), medianCard);
                    if (mem != null) {
                        perGpu.add(mem);
                    }
                    DraRun.Placement placement = admission.place().get();
                    failure = placement instanceof DraRun.Placement.NotPlaced np ? np.reason() : null;
                    if (placement instanceof DraRun.Placement.Bound b) {
                        prepare(kubelet, preparing, prepared, bound++, b.claims());
                    }
                }
                long t2 = System.nanoTime();
                schedule[i] = t2 - t1;
                cycle[i] = t2 - t0;
                if (failure == null) {
                    placed++;
                } else {
                    failures.merge(failure, 1, Integer::sum);
                }
                progress.accept(i + 1);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            awaitPrepares(preparing);
            long[] prepareNanos = new long[bound];
            for (int i = 0; i < bound; i++) {
                prepareNanos[i] = prepared.get(i);
            }
            long reference = Measures.median(perGpu);
            var views = run.views();
            return new SimulationReport(mode(), views.size(), Measures.gpuCount(views), n, placed, failures, 0, seconds,
                    List.of(Measures.latency("webhook", admit), Measures.latency("claim + allocate + bind", schedule),
                            Measures.latency("whole cycle", cycle),
                            Measures.latency("prepare (bound → prepared)", prepareNanos)),
                    Measures.utilisation(views, true), Measures.utilisation(views, false), reference,
                    Fragmentation.of(views, Math.max(1, reference)));
        } finally {
            kubelet.shutdownNow();
        }
    }

    /** The kubelet prepares the bound pod's claims one after another, off the scheduler's thread, with no lock. */
    private void prepare(ScheduledExecutorService kubelet, Phaser preparing, AtomicLongArray prepared, int slot,
                         int claims) {
        long boundAt = System.nanoTime();
        preparing.register();
        kubelet.schedule(() -> {
            prepared.set(slot, System.nanoTime() - boundAt);
            preparing.arriveAndDeregister();
        }, prepareDelay.toNanos() * claims, TimeUnit.NANOSECONDS);
    }

    private static void awaitPrepares(Phaser preparing) {
        try {
            preparing.awaitAdvanceInterruptibly(preparing.arrive(), PREPARE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the kubelet prepared claims", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("claims still unprepared after " + PREPARE_WAIT.toSeconds() + " s", e);
        }
    }
}
