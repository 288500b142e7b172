package io.vgpu.loadtest.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The targets of issue 14 evaluated against one run's rows. Every target is listed, measured or not: one that the
 * run did not measure (its part was not run, or broke) says so and is not met. Pure: rows in, verdicts out.
 */
final class Targets {

    /** Fan-out may differ by at most this fraction between 10 and 100 placed pods per node. */
    static final double FAN_OUT_DENSITY_TOLERANCE = 0.20;
    /** Decisions a fan-out row needs in its window before its bytes per decision count. */
    static final long FAN_OUT_MIN_DECISIONS = 20;
    static final double FAN_OUT_MAX_BYTES = 1024;
    static final double CPU_3_TO_1_MAX = 1.3;
    static final double LOSS_MAX = 0.20;
    static final double FILTER_P50_RATIO_MAX = 3;
    static final double FILTER_P99_RATIO_MAX = 4;
    static final double ONE_REPLICA_MIN_PER_SECOND = 2_500;
    static final double HEAP_MAX_MIB = 384;

    private Targets() {
    }

    /**
     * One target and what the run measured for it.
     *
     * @param id       stable key
     * @param target   the target in words
     * @param measured the measured figure in words ({@code not measured} when the run has none)
     * @param value    the figure compared with {@code limit}; null when not measured
     * @param limit    the bound
     * @param met      whether the value is within the bound
     */
    record Target(String id, String target, String measured, Double value, double limit, boolean met) {
    }

    static List<Target> evaluate(List<Row> rows, Map<String, Object> heap) {
        List<Target> out = new ArrayList<>();
        fanOut(rows, out);
        for (int k : new int[] {1, 3}) {
            Double one = number(rows, "cycle-r1-k" + k + "-d0", "cpuMillisPerDecision");
            Double three = number(rows, "cycle-r3-k" + k + "-d0", "cpuMillisPerDecision");
            Double ratio = one == null || three == null || one <= 0 ? null : three / one;
            // judged on the whole CPU, as the target says; the part without the JIT threads is shown beside it (on 2
            // cores three cold JVMs are still compiling in the window: warm-up, not a decision's cost)
            Double oneJit = number(rows, "cycle-r1-k" + k + "-d0", "jitCpuMillisPerDecision");
            Double threeJit = number(rows, "cycle-r3-k" + k + "-d0", "jitCpuMillisPerDecision");
            String withoutJit = ratio == null || oneJit == null || threeJit == null || one - oneJit <= 0 ? ""
                    : String.format(Locale.ROOT, "; without the JIT threads %.2f× (%.3f vs %.3f ms)",
                    (three - threeJit) / (one - oneJit), three - threeJit, one - oneJit);
            out.add(atMost("cpu-3-vs-1-k" + k, "CPU per decision, all gateway processes: 3 replicas ≤ 1.3× 1 replica (K="
                    + k + ", device plugin 0 ms)", ratio, CPU_3_TO_1_MAX, ratio == null ? null : String.format(
                    Locale.ROOT, "%.2f× (%.3f vs %.3f ms)", ratio, three, one) + withoutJit));
        }
        for (int k : new int[] {1, 3}) {
            Double loss = number(rows, "cycle-r3-k" + k + "-d0", "lossVs1Replica");
            out.add(atMost("loss-3-replicas-k" + k, "3 replicas lose ≤ 20 % of 1-replica decisions/s (K=" + k
                    + ", device plugin 0 ms, this machine)", loss, LOSS_MAX, loss == null ? null : percent(loss)));
        }
        Double p50 = number(rows, "filter-5000", "ratioP50ToCeiling");
        Double p99 = number(rows, "filter-5000", "ratioP99ToCeiling");
        out.add(atMost("filter-5000-p50", "/filter at 5,000 nodes: p50 ≤ 3× the bare endpoint's p50", p50,
                FILTER_P50_RATIO_MAX, p50 == null ? null : times(p50) + latency(rows, "filter-5000", true)));
        out.add(atMost("filter-5000-p99", "/filter at 5,000 nodes: p99 ≤ 4× the bare endpoint's p99", p99,
                FILTER_P99_RATIO_MAX, p99 == null ? null : times(p99) + latency(rows, "filter-5000", false)));
        Optional<Row> one = row(rows, "cycle-r1-k1-d0-in-process");
        Double perSecond = one.map(Row::throughput).orElse(null);
        out.add(new Target("one-replica-decisions", "one replica ≥ 2,500 decisions/s (K=1, fast API sink in its JVM, "
                + "0 ms)",
                perSecond == null ? "not measured" : String.format(Locale.ROOT, "%.0f/s", perSecond), perSecond,
                ONE_REPLICA_MIN_PER_SECOND, perSecond != null && perSecond >= ONE_REPLICA_MIN_PER_SECOND));
        out.add(heap(heap));
        return out;
    }

    private static void fanOut(List<Row> rows, List<Target> out) {
        Double at10 = fanOutPerDecision(rows, "fanout-p10");
        Double at100 = fanOutPerDecision(rows, "fanout-p100");
        Double change = at10 == null || at100 == null || at10 <= 0 ? null : Math.abs(at100 / at10 - 1);
        out.add(atMost("fan-out-density", "fan-out per replica per decision the same within ±20 % at 10 and 100 "
                        + "placed pods per node", change, FAN_OUT_DENSITY_TOLERANCE, change == null ? null
                        : String.format(Locale.ROOT, "%s apart (%.0f B at 10, %.0f B at 100 pods/node)", percent(change),
                        at10, at100)));
        Double worst = at10 == null && at100 == null ? null : Math.max(at10 == null ? 0 : at10, at100 == null ? 0 : at100);
        out.add(atMost("fan-out-size", "fan-out ≤ 1 KiB per replica per decision at 8 GPUs per node", worst,
                FAN_OUT_MAX_BYTES, worst == null ? null : String.format(Locale.ROOT, "%.0f B (the larger density)", worst)));
    }

    /**
     * The heap target is a replica's among three ({@link ReplicaHeapRun}: the largest of them), not the single member
     * of the probe, which holds every charge and stays reported as the one-replica figure.
     */
    private static Target heap(Map<String, Object> heap) {
        Map<?, ?> row = heap.get(Benchmark.DEPLOYMENT_HEAP) instanceof Map<?, ?> m ? m : Map.of();
        String what = "heap ≤ 384 MiB after full GC, the largest replica of " + or(row.get("replicas"), 3) + ", at "
                + or(row.get("nodes"), 10_000) + " nodes / " + or(row.get("pods"), 200_000) + " pods";
        OptionalDouble largest = largestReplicaHeap(heap);
        if (largest.isEmpty()) {
            return new Target("heap", what, "not measured", null, HEAP_MAX_MIB, false);
        }
        double mib = largest.getAsDouble();
        return new Target("heap", what, String.format(Locale.ROOT, "%.0f MiB (each replica: %s MiB)", mib,
                row.get("usedAfterGcMiB")), mib, HEAP_MAX_MIB, mib <= HEAP_MAX_MIB);
    }

    /**
     * The largest used heap after full GC of the deployment heap row's replicas, in MiB; empty when the row is missing
     * or a replica's figure is (a replica that did not answer leaves the row unmeasured, not its best replica's).
     */
    static OptionalDouble largestReplicaHeap(Map<String, Object> heap) {
        if (!(heap.get(Benchmark.DEPLOYMENT_HEAP) instanceof Map<?, ?> row)
                || !(row.get("usedAfterGcMiB") instanceof List<?> used) || used.isEmpty()
                || !(row.get("replicas") instanceof Number replicas) || used.size() != replicas.intValue()) {
            return OptionalDouble.empty();
        }
        double max = Double.NEGATIVE_INFINITY;
        for (Object u : used) {
            if (!(u instanceof Number n) || Double.isNaN(n.doubleValue())) {
                return OptionalDouble.empty();
            }
            max = Math.max(max, n.doubleValue());
        }
        return OptionalDouble.of(max);
    }

    private static Object or(Object value, Object otherwise) {
        return value == null ? otherwise : value;
    }

    private static Target atMost(String id, String target, Double value, double limit, String measured) {
        return new Target(id, target, value == null ? "not measured" : measured, value, limit,
                value != null && !value.isNaN() && value <= limit);
    }

    /**
     * A fan-out row's bytes per decision, or null when it made fewer than {@link #FAN_OUT_MIN_DECISIONS} decisions: the
     * background events of a window (republications, re-registrations) divided by one or two decisions are no
     * per-decision figure (a fanout-p100 row that made 1 decision in its window read as "79 % apart").
     */
    private static Double fanOutPerDecision(List<Row> rows, String id) {
        return row(rows, id).filter(r -> r.ok() >= FAN_OUT_MIN_DECISIONS).isPresent()
                ? number(rows, id, "fanOutBytesPerDecisionPerReplica") : null;
    }

    /** A numeric figure of a row, or null when the row or the figure is missing (or not a number). */
    private static Double number(List<Row> rows, String id, String key) {
        return row(rows, id).map(r -> r.extra().get(key)).filter(Number.class::isInstance)
                .map(n -> ((Number) n).doubleValue()).filter(d -> !d.isNaN()).orElse(null);
    }

    private static Optional<Row> row(List<Row> rows, String id) {
        return rows.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    private static String latency(List<Row> rows, String id, boolean p50) {
        return row(rows, id).map(r -> String.format(Locale.ROOT, " (%.2f ms)", p50 ? r.latency().p50()
                : r.latency().p99())).orElse("");
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * fraction);
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }
}
