package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The benchmark's results: {@code benchmark.json} and the Markdown tables of docs/benchmarks.md. */
final class BenchReport {

    private final Map<String, Object> machine;
    private final BenchSizes sizes;
    private final List<Row> rows;
    private final Map<String, Object> heap;
    private final double seconds;
    private final List<String> failures;
    private final boolean partial;

    /**
     * @param failures parts that broke
     * @param partial  true while the run is still going (a checkpoint)
     */
    BenchReport(Map<String, Object> machine, BenchSizes sizes, List<Row> rows, Map<String, Object> heap,
                double seconds, List<String> failures, boolean partial) {
        this.machine = machine;
        this.sizes = sizes;
        this.rows = List.copyOf(rows);
        this.heap = new java.util.LinkedHashMap<>(heap);
        this.seconds = seconds;
        this.failures = List.copyOf(failures);
        this.partial = partial;
    }

    /** Rows where nothing ever succeeded, warm-up included (a broken run rather than a slow one). */
    List<String> brokenRows() {
        return rows.stream().filter(r -> r.ok() == 0 && !(r.extra().get("succeededIncludingWarmup") instanceof Long n
                && n > 0)).map(Row::id).toList();
    }

    void writeJson(Path file) throws IOException {
        ObjectNode root = BenchHttp.JSON.createObjectNode();
        root.put("schema", "vgpu-benchmark/v2");
        root.put("commit", String.valueOf(machine.get("commit")));
        root.set("machine", BenchHttp.JSON.valueToTree(machine));
        root.put("sizes", sizes.toString());
        root.put("seconds", Benchmark.round(seconds));
        root.put("partial", partial);
        root.set("failedParts", BenchHttp.JSON.valueToTree(failures));
        ArrayNode array = root.putArray("rows");
        for (Row r : rows) {
            ObjectNode o = array.addObject();
            o.put("id", r.id()).put("title", r.title()).put("ok", r.ok()).put("seconds", Benchmark.round(r.seconds()))
                    .put("throughputPerSecond", Benchmark.round(r.throughput()));
            o.set("errors", BenchHttp.JSON.valueToTree(new TreeMap<>(r.errors())));
            o.set("latencyMillis", BenchHttp.JSON.valueToTree(r.latency()));
            ObjectNode steps = o.putObject("stepLatencyMillis");
            r.steps().forEach((k, v) -> steps.set(k, BenchHttp.JSON.valueToTree(v)));
            r.extra().forEach((k, v) -> o.set(k, BenchHttp.JSON.valueToTree(v)));
        }
        root.set("heap", BenchHttp.JSON.valueToTree(heap));
        ArrayNode targets = root.putArray("targets");
        for (Targets.Target t : targets()) {
            ObjectNode o = targets.addObject().put("id", t.id()).put("target", t.target()).put("measured", t.measured());
            if (t.value() == null) {
                o.putNull("value");
            } else {
                o.put("value", Benchmark.round(t.value()));
            }
            o.put("limit", t.limit()).put("met", t.met());
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        BenchHttp.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }

    void writeMarkdown(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, markdown(), StandardCharsets.UTF_8);
    }

    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Machine: %s cores (%s), %s GiB RAM, %s, %s; driver JVM `%s`. Run took "
                        + "%.0f s; load average (1/5/15 min) %s at the start, %s at the end.%n%n", machine.get("cores"),
                machine.get("cpu"), machine.get("memoryGiB"), machine.get("os"), machine.get("java"),
                machine.get("jvmArgs"), seconds, machine.get("loadAverageAtStart"), machine.get("loadAverageAtEnd")));
        if (!failures.isEmpty()) {
            b.append("Parts that broke: ").append(String.join("; ", failures)).append("\n\n");
        }
        targetsTable(b);
        filterTable(b);
        cycleTable(b, "Filter + bind cycle, fast API sink (spread node policy)", "cycle-");
        cycleTable(b, "Filter + bind cycle, binpack node policy (the node lock bound)", "binpack-");
        cycleTable(b, "Filter + bind cycle, fabric8 mock API server", "mock-");
        heapTable(b);
        return b.toString();
    }

    private void targetsTable(StringBuilder b) {
        b.append("| target | measured | met |\n|---|---|---|\n");
        for (Targets.Target t : targets()) {
            b.append("| ").append(t.target()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.met() ? "yes" : "**no**").append(" |\n");
        }
        b.append('\n');
    }

    private void filterTable(StringBuilder b) {
        List<Row> filters = rows.stream().filter(r -> r.id().startsWith("filter-")).toList();
        if (filters.isEmpty()) {
            return;
        }
        b.append("#### /filter, NodeNames mode, 1 replica with the fast API sink in its JVM, 1 stream\n\n");
        b.append("| nodes × 8 GPUs | gateway p50 / p99 / p99.9 (ms) | req/s | bare endpoint p50 / p99 / p99.9 (ms) "
                + "| bare req/s | p50 ratio | p99 ratio | errors |\n|---|---|---|---|---|---|---|---|\n");
        for (Row r : filters) {
            Optional<Row> c = row("ceiling-" + r.id());
            b.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %.0f | %s× | %s× | %d |%n",
                    r.extra().get("nodes"), lat(r.latency()), r.throughput(), c.map(x -> lat(x.latency())).orElse("-"),
                    c.map(Row::throughput).orElse(0.0), r.extra().get("ratioP50ToCeiling"),
                    r.extra().get("ratioP99ToCeiling"), r.errorCount()));
        }
        b.append('\n');
    }

    private void cycleTable(StringBuilder b, String title, String prefix) {
        List<Row> cycles = rows.stream().filter(r -> r.id().startsWith(prefix)).toList();
        if (cycles.isEmpty()) {
            return;
        }
        b.append("#### ").append(title).append("\n\n");
        b.append("| replicas | K | device plugin | decisions/s | vs bare | loss vs 1 replica | cycle p50 / p99 / p99.9 (ms) "
                + "| filter p50 / p99 (ms) | bind p50 / p99 (ms) | fan-out per replica | errors |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : cycles) {
            Samples.Latency f = r.steps().get("filter");
            Samples.Latency bi = r.steps().get("bind");
            Object delay = r.extra().get("devicePluginMillis");
            Object events = r.extra().get("fanOutEventsPerSecond");
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.extra().get("replicas") + (Boolean.TRUE.equals(r.extra().get("sinkInReplicaJvm"))
                            ? " (sink in its JVM)" : ""), r.extra().get("streams"), delay == null ? "simulated, 0 ms" : delay + " ms",
                    r.throughput(), pct(r.extra().get("ratioToCeiling")), pct(r.extra().get("lossVs1Replica")),
                    lat(r.latency()), lat2(f), lat2(bi),
                    events == null ? "-" : String.format(Locale.ROOT, "%.0f ev/s, %s/s", ((Number) events).doubleValue(),
                            bytes(((Number) r.extra().get("fanOutBytesPerSecondPerReplica")).doubleValue())),
                    errors(r)));
        }
        List<Row> ceilings = prefix.equals("cycle-") ? rows.stream().filter(r -> r.id().startsWith("ceiling-cycle"))
                .toList() : List.of();
        for (Row c : ceilings) {
            b.append(String.format(Locale.ROOT, "%nBare endpoint, same filter + bind payloads, K=%s: %.0f cycles/s, "
                    + "cycle p50 / p99 / p99.9 %s ms.", c.extra().get("streams"), c.throughput(), lat(c.latency())));
        }
        b.append("\n\n");
    }

    private void heapTable(StringBuilder b) {
        probeHeapTable(b);
        deploymentHeapTable(b);
    }

    /** The deployment heap row ({@link ReplicaHeapRun}): one line per replica. */
    private void deploymentHeapTable(StringBuilder b) {
        if (!(heap.get(Benchmark.DEPLOYMENT_HEAP) instanceof Map<?, ?> d)) {
            return;
        }
        b.append(String.format(Locale.ROOT, "#### Heap of each replica among %s (own JVMs, %s)%n%n", d.get("replicas"),
                d.get("jvm")));
        b.append("| replica | nodes | GPUs | placed pods | used heap after full GC (state, informer mirror, verdict "
                + "cache of 8 shapes) | of which the informer mirror alone | without the mirror |\n"
                + "|---|---|---|---|---|---|---|\n");
        List<?> used = d.get("usedAfterGcMiB") instanceof List<?> l ? l : List.of();
        List<?> mirror = d.get("mirrorMiB") instanceof List<?> l ? l : List.of();
        List<?> without = d.get("withoutMirrorMiB") instanceof List<?> l ? l : List.of();
        for (int i = 0; i < used.size(); i++) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s |%n", i, d.get("nodes"),
                    d.get("gpus"), d.get("pods"), mib(used.get(i)), i < mirror.size() ? mib(mirror.get(i)) : "-",
                    i < without.size() ? mib(without.get(i)) : "-"));
        }
        b.append(String.format(Locale.ROOT, "%nLargest replica: **%s MiB**. Ready (every placed pod in every view) "
                        + "after %.0f s; the row took %.0f s; %s of the filters that filled the verdict caches answered "
                        + "an error. Driver (the API sink with every pod): %s used after full GC of %s.%n%n",
                Targets.largestReplicaHeap(heap).stream().mapToObj(m -> String.format(Locale.ROOT, "%.1f", m))
                        .findFirst().orElse("-"), d.get("readySeconds"), d.get("seconds"), d.get("filterErrors"),
                mib(d.get("driverUsedAfterGcMiB")), mib(d.get("driverHeapMaxMiB"))));
    }

    /** The heap probe's row: one member holding the whole state. */
    private void probeHeapTable(StringBuilder b) {
        if (!(heap.get("usedAfterGcMiB") instanceof com.fasterxml.jackson.databind.JsonNode u)) {
            Map<String, Object> probe = new java.util.LinkedHashMap<>(heap);
            probe.remove(Benchmark.DEPLOYMENT_HEAP);
            if (!probe.isEmpty()) {
                b.append("#### Heap of one replica\n\nThe probe did not complete: ").append(probe).append("\n\n");
            }
            return;
        }
        b.append("#### Heap of one replica holding the whole state (the probe, own JVM, ").append(heap.get("jvm"))
                .append(")\n\n");
        if (Boolean.FALSE.equals(heap.get("completedUnderMaxHeap"))) {
            b.append("Under -Xmx512m the probe did not complete: ").append(heap.get("failureUnderMaxHeap"))
                    .append(".\n\n");
        }
        b.append("| nodes | GPUs | placed pods | used heap after full GC: member started | + nodes | + informer pod cache "
                + "| + pods in the state | + filter verdict cache (8 shapes) |\n|---|---|---|---|---|---|---|---|\n");
        b.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f MiB | %.0f MiB | %.0f MiB | %.0f MiB | **%.0f MiB** |%n%n",
                heap.get("nodes"), heap.get("gpus"), heap.get("pods"), u.path("member").asDouble(),
                u.path("nodes").asDouble(), u.path("podCaches").asDouble(), u.path("nodesAndPods").asDouble(),
                peakHeap(u)));
    }

    List<Targets.Target> targets() {
        return Targets.evaluate(rows, heap);
    }

    /** The probe's last figure: with the verdict cache when the probe measured it (older reports: without). */
    private static double peakHeap(com.fasterxml.jackson.databind.JsonNode usedAfterGc) {
        return usedAfterGc.path("withVerdictCache").asDouble(usedAfterGc.path("nodesAndPods").asDouble());
    }

    private static String mib(Object value) {
        return value instanceof Number n ? String.format(Locale.ROOT, "%.1f MiB", n.doubleValue()) : "-";
    }

    private Optional<Row> row(String id) {
        return rows.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    private static String lat(Samples.Latency l) {
        return String.format(Locale.ROOT, "%s / %s / %s", num(l.p50()), num(l.p99()), num(l.p999()));
    }

    private static String lat2(Samples.Latency l) {
        return l == null ? "-" : String.format(Locale.ROOT, "%s / %s", num(l.p50()), num(l.p99()));
    }

    private static String num(double ms) {
        return ms >= 100 ? String.format(Locale.ROOT, "%.0f", ms)
                : ms >= 10 ? String.format(Locale.ROOT, "%.1f", ms) : String.format(Locale.ROOT, "%.2f", ms);
    }

    private static String ms(double ms) {
        return num(ms) + " ms";
    }

    private static String pct(Object fraction) {
        return fraction == null ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * ((Number) fraction).doubleValue());
    }

    private static String bytes(double perSecond) {
        return perSecond >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", perSecond / (1 << 20))
                : String.format(Locale.ROOT, "%.0f KiB", perSecond / 1024);
    }

    private static String errors(Row r) {
        if (r.errors().isEmpty()) {
            return "0";
        }
        StringBuilder s = new StringBuilder();
        new TreeMap<>(r.errors()).forEach((k, v) -> s.append(s.isEmpty() ? "" : "; ").append(v).append(" × ")
                .append(k.replace("|", "/")));
        return s.toString();
    }
}
