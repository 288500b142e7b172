package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.simulate.report.ReportRun;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Collects what the HTML report draws ({@link ReportRun}) while a simulation runs, without changing the run: it
 * wraps the run's progress callback to sample utilisation and fragmentation of the cluster state about 100 times,
 * takes per-pod placement latencies either from the gaps between progress calls (sequential runs: the core mode)
 * or from a pod watch on the simulated API server (creation → {@code spec.nodeName} set: what a user sees), and
 * reads every node's GPU usage at the end.
 *
 * <p>Threading: {@link #progress} callbacks come from one thread at a time (the run's driver); the watch records
 * from the informer thread; {@link #finish} after the run.
 */
public final class ReportRecorder {

    private static final int SAMPLES = 100;

    private final String label;
    private final Supplier<Collection<NodeView>> nodes;
    private final int pods;
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Long> created = new ConcurrentHashMap<>();
    private final List<Long> latencies = new ArrayList<>();
    private String latencyWhat = "no placement latency recorded";
    private long started;
    private long last;

    /**
     * @param label    the run's name in the report, e.g. {@code binpack nodes, spread GPUs}
     * @param workload the pods the run submits
     * @param nodes    the cluster state's node views, read at each sample (must be cheap and thread-safe)
     */
    public ReportRecorder(String label, List<PodSpec> workload, Supplier<Collection<NodeView>> nodes) {
        this.label = label;
        this.nodes = nodes;
        this.pods = workload.size();
    }

    /**
     * The progress callback to hand to the run: samples the cluster, then calls {@code next}.
     *
     * @param next       the run's own progress callback (the progress bar)
     * @param sequential true when pods are placed one at a time (core mode): the gap between two calls is then the
     *                   pod's placement latency
     */
    public IntConsumer progress(IntConsumer next, boolean sequential) {
        started = System.nanoTime();
        last = started;
        samples.add(sample(0));
        if (sequential) {
            latencyWhat = "time to decide and reserve one pod (webhook, filter, reserve), in-process";
        }
        int every = Math.max(1, pods / SAMPLES);
        return done -> {
            long now = System.nanoTime();
            if (sequential) {
                latencies.add(now - last);
            }
            last = now;
            if (done % every == 0 || done == pods) {
                samples.add(sample(done));
            }
            next.accept(done);
        };
    }

    /**
     * Watches the simulated API server's pods and records, per pod, the time from its creation to its binding
     * ({@code spec.nodeName} set), both as the watch delivers them. Close the result when the run is over.
     */
    public AutoCloseable watchPlacements(KubernetesClient client) {
        latencyWhat = "pod created in the API server → bound (spec.nodeName set), as a watch sees it";
        SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                created.putIfAbsent(pod.getMetadata().getUid(), System.nanoTime());
                onUpdate(pod, pod);
            }

            @Override
            public void onUpdate(Pod before, Pod pod) {
                String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                Long at = node == null || node.isEmpty() ? null : created.remove(pod.getMetadata().getUid());
                if (at != null) {
                    synchronized (latencies) {
                        latencies.add(System.nanoTime() - at);
                    }
                }
            }

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                created.remove(pod.getMetadata().getUid());
            }
        }, 0);
        return informer::stop;
    }

    /** The run as the report draws it; call once the run is over and the state has settled. */
    public ReportRun finish(SimulationReport summary) {
        List<ReportRun.NodeUsage> usage = new ArrayList<>();
        List<NodeView> sorted = new ArrayList<>(nodes.get());
        sorted.sort(Comparator.comparing(NodeView::name));
        for (NodeView n : sorted) {
            List<ReportRun.GpuUsage> gpus = new ArrayList<>(n.devices().size());
            for (DeviceUsage d : n.devices()) {
                gpus.add(new ReportRun.GpuUsage(d.id(), d.type(), d.usedmem(), d.totalmem(), d.usedcores(),
                        d.totalcore(), d.used(), d.count()));
            }
            usage.add(new ReportRun.NodeUsage(n.name(), gpus));
        }
        long[] nanos;
        synchronized (latencies) {
            nanos = latencies.stream().mapToLong(Long::longValue).toArray();
        }
        long r = Math.max(1, summary.referenceMiB());
        List<ReportRun.TimePoint> timeline = samples.stream().map(x -> x.point(r)).toList();
        return new ReportRun(label, summary, usage, timeline, nanos, latencyWhat);
    }

    private Sample sample(int done) {
        Collection<NodeView> now = nodes.get();
        int gpus = Measures.gpuCount(now);
        int[] usable = new int[gpus];
        int count = 0;
        long unusable = 0;
        long total = 0;
        for (NodeView n : now) {
            for (DeviceUsage d : n.devices()) {
                long free = Math.max(0, (long) d.totalmem() - d.usedmem());
                total += free;
                if (!d.health() || d.used() >= d.count()) {
                    unusable += free;
                } else {
                    usable[count++] = (int) Math.min(Integer.MAX_VALUE, free);
                }
            }
        }
        int[] sorted = java.util.Arrays.copyOf(usable, count);
        java.util.Arrays.sort(sorted);
        return new Sample(done, (System.nanoTime() - started) / 1e9, Measures.utilisation(now, true),
                Measures.utilisation(now, false), sorted, unusable, total);
    }

    /**
     * The cluster at one moment, kept so that its fragmentation can be computed for the run's reference request R,
     * which is known only at the end ({@link Fragmentation}: free memory on cards that are unhealthy, full, or have
     * less than R free, over all free memory).
     */
    private record Sample(int done, double seconds, double memory, double cores, int[] usableFreeSorted,
                          long unusableFree, long totalFree) {

        ReportRun.TimePoint point(long r) {
            long stranded = unusableFree;
            for (int free : usableFreeSorted) {
                if (free >= r) {
                    break;
                }
                stranded += free;
            }
            return new ReportRun.TimePoint(done, seconds, memory, cores,
                    totalFree == 0 ? 0 : (double) stranded / totalFree, 0);
        }
    }
}
