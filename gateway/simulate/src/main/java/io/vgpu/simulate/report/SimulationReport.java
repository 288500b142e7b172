package io.vgpu.simulate.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulation run measured.
 *
 * @param mode              how the pods were scheduled, in words (the first row of the table)
 * @param nodes             nodes registered in the cluster state
 * @param gpus              GPUs in the cluster
 * @param pods              pods submitted
 * @param placed            pods placed (bound, in http mode)
 * @param failuresByReason  pods not placed, by reason (the dominant HAMi reason word, or the failing step's message)
 * @param retries           scheduling cycles retried after a failed bind (kube-scheduler re-queues such pods)
 * @param seconds           wall time of the pod stream
 * @param latencies         latency percentiles, one row each (core: the decision; http: each endpoint and the
 *                          whole cycle)
 * @param memoryUtilisation granted GPU memory / all GPU memory
 * @param coreUtilisation   granted SM percent / all SM percent
 * @param referenceMiB      the workload's median per-GPU memory request R
 * @param fragmentation     free memory on GPUs that cannot fit R / all free memory
 */
public record SimulationReport(String mode, int nodes, int gpus, int pods, int placed,
                               Map<String, Integer> failuresByReason, int retries, double seconds,
                               List<Latency> latencies, double memoryUtilisation, double coreUtilisation,
                               long referenceMiB, double fragmentation) {

    /**
     * Latency percentiles of one step.
     *
     * @param what      the step, e.g. {@code filter}
     * @param samples   how many were measured
     * @param p50Micros median, in microseconds
     * @param p99Micros 99th percentile, in microseconds
     */
    public record Latency(String what, int samples, double p50Micros, double p99Micros) {
    }

    /** Copies the map (sorted by reason) and the list. */
    public SimulationReport {
        failuresByReason = Map.copyOf(new TreeMap<>(failuresByReason));
        latencies = List.copyOf(latencies);
    }

    /** Pods not placed. */
    public int failed() {
        return pods - placed;
    }

    /** Pods handled per second of wall time. */
    public double podsPerSecond() {
        return seconds <= 0 ? 0 : pods / seconds;
    }

    /** The summary table printed at the end of a run. */
    public String table() {
        StringBuilder b = new StringBuilder();
        row(b, "mode", mode);
        row(b, "cluster", nodes + " nodes, " + gpus + " GPUs");
        row(b, "pods submitted", Integer.toString(pods));
        row(b, "pods placed", placed + String.format(Locale.ROOT, " (%.1f %%)", pods == 0 ? 0.0 : 100.0 * placed / pods));
        row(b, "pods failed", Integer.toString(failed()));
        new TreeMap<>(failuresByReason).forEach((reason, n) -> row(b, "  " + reason, Integer.toString(n)));
        if (retries > 0) {
            row(b, "cycles retried after a failed bind", Integer.toString(retries));
        }
        row(b, "throughput", String.format(Locale.ROOT, "%.0f pods/s (%.2f s)", podsPerSecond(), seconds));
        for (Latency l : latencies) {
            row(b, "latency " + l.what() + " p50 / p99", l.samples() == 0 ? "-"
                    : duration(l.p50Micros()) + " / " + duration(l.p99Micros()));
        }
        row(b, "GPU memory utilisation", String.format(Locale.ROOT, "%.1f %%", 100 * memoryUtilisation));
        row(b, "GPU core utilisation", String.format(Locale.ROOT, "%.1f %%", 100 * coreUtilisation));
        row(b, "fragmentation (R = " + referenceMiB + " MiB)", String.format(Locale.ROOT, "%.1f %%", 100 * fragmentation));
        return b.toString();
    }

    private static String duration(double micros) {
        return micros < 1000 ? String.format(Locale.ROOT, "%.1f us", micros)
                : String.format(Locale.ROOT, "%.2f ms", micros / 1000);
    }

    private static void row(StringBuilder b, String label, String value) {
        b.append(String.format(Locale.ROOT, "%-34s %s%n", label, value));
    }
}
