package io.vgpu.gateway.simulate;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulation run measured.
 *
 * @param nodes              nodes in the cluster
 * @param gpus               GPUs in the cluster
 * @param pods               pods submitted
 * @param placed             pods placed
 * @param failuresByReason   pods not placed, by reason (the dominant HAMi reason word, or the webhook's message)
 * @param decisionsPerSecond filter + reserve decisions per second of wall time
 * @param p50Micros          median decision latency in microseconds
 * @param p99Micros          99th percentile decision latency in microseconds
 * @param memoryUtilisation  granted GPU memory / all GPU memory
 * @param coreUtilisation    granted SM percent / all SM percent
 * @param referenceMiB       the workload's median per-GPU memory request R
 * @param fragmentation      free memory on GPUs that cannot fit R / all free memory
 */
public record SimulationReport(int nodes, int gpus, int pods, int placed, Map<String, Integer> failuresByReason,
                               double decisionsPerSecond, double p50Micros, double p99Micros,
                               double memoryUtilisation, double coreUtilisation, long referenceMiB,
                               double fragmentation) {

    /** Copies the map, sorted by reason. */
    public SimulationReport {
        failuresByReason = Map.copyOf(new TreeMap<>(failuresByReason));
    }

    /** Pods not placed. */
    public int failed() {
        return pods - placed;
    }

    /** The summary table printed at the end of a run. */
    public String table() {
        StringBuilder b = new StringBuilder();
        row(b, "cluster", nodes + " nodes, " + gpus + " GPUs");
        row(b, "pods submitted", Integer.toString(pods));
        row(b, "pods placed", placed + String.format(Locale.ROOT, " (%.1f %%)", pods == 0 ? 0.0 : 100.0 * placed / pods));
        row(b, "pods failed", Integer.toString(failed()));
        new TreeMap<>(failuresByReason).forEach((reason, n) -> row(b, "  " + reason, Integer.toString(n)));
        row(b, "decisions/s", String.format(Locale.ROOT, "%.0f", decisionsPerSecond));
        row(b, "decision latency p50", String.format(Locale.ROOT, "%.1f us", p50Micros));
        row(b, "decision latency p99", String.format(Locale.ROOT, "%.1f us", p99Micros));
        row(b, "GPU memory utilisation", String.format(Locale.ROOT, "%.1f %%", 100 * memoryUtilisation));
        row(b, "GPU core utilisation", String.format(Locale.ROOT, "%.1f %%", 100 * coreUtilisation));
        row(b, "fragmentation (R = " + referenceMiB + " MiB)", String.format(Locale.ROOT, "%.1f %%", 100 * fragmentation));
        return b.toString();
    }

    private static void row(StringBuilder b, String label, String value) {
        b.append(String.format(Locale.ROOT, "%-34s %s%n", label, value));
    }
}
