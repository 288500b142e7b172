package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code met} evaluation of issue 14's targets, and the shape of benchmark.json. */
class TargetsTest {

    private static final Samples.Latency LAT = new Samples.Latency(100, 1.0, 2.0, 3.0, 4.0);

    private static Row row(String id, long ok, Map<String, Object> extra) {
        return new Row(id, id, ok, Map.of(), 10, LAT, Map.of(), extra);
    }

    /** A run where every target sits just inside its bound. */
    private static List<Row> passing() {
        List<Row> rows = new ArrayList<>();
        rows.add(row("fanout-p10", 100, Map.of("fanOutBytesPerDecisionPerReplica", 800.0)));
        rows.add(row("fanout-p100", 100, Map.of("fanOutBytesPerDecisionPerReplica", 960.0)));
        rows.add(row("cycle-r1-k1-d0", 25_000, Map.of("cpuMillisPerDecision", 0.40)));
        rows.add(row("cycle-r3-k1-d0", 20_000, Map.of("cpuMillisPerDecision", 0.52, "lossVs1Replica", 0.20)));
        rows.add(row("cycle-r1-k3-d0", 25_000, Map.of("cpuMillisPerDecision", 0.50)));
        rows.add(row("cycle-r3-k3-d0", 21_000, Map.of("cpuMillisPerDecision", 0.60, "lossVs1Replica", 0.16)));
        rows.add(row("filter-5000", 1_000, Map.of("ratioP50ToCeiling", 3.0, "ratioP99ToCeiling", 3.9)));
        rows.add(row("cycle-r1-k1-d0-in-process", 25_000, Map.of("sinkInReplicaJvm", true)));
        return rows;
    }

    /** The probe's one member at 470 MiB (well over the bound) and three replicas, the largest at {@code mib}. */
    private static Map<String, Object> heap(double mib) {
        return heap(470, List.of(mib - 30, mib, mib - 20));
    }

    private static Map<String, Object> heap(double probeMib, List<Double> replicasMib) {
        Map<String, Object> heap = new LinkedHashMap<>();
        heap.put("nodes", 10_000);
        heap.put("pods", 200_000);
        heap.put("usedAfterGcMiB", BenchHttp.JSON.createObjectNode().put("nodesAndPods", probeMib - 10)
                .put("withVerdictCache", probeMib));
        Map<String, Object> deployment = new LinkedHashMap<>();
        deployment.put("replicas", replicasMib.size());
        deployment.put("nodes", 10_000);
        deployment.put("pods", 200_000);
        deployment.put("usedAfterGcMiB", replicasMib);
        heap.put(Benchmark.DEPLOYMENT_HEAP, deployment);
        return heap;
    }

    private static Map<String, Boolean> met(List<Row> rows, Map<String, Object> heap) {
        return Targets.evaluate(rows, heap).stream().collect(Collectors.toMap(Targets.Target::id,
                Targets.Target::met, (a, b) -> a, LinkedHashMap::new));
    }

    @Test
    void everyTargetMetAtItsBound() {
        assertThat(met(passing(), heap(384))).containsOnlyKeys("fan-out-density", "fan-out-size", "cpu-3-vs-1-k1",
                "cpu-3-vs-1-k3", "loss-3-replicas-k1", "loss-3-replicas-k3", "filter-5000-p50", "filter-5000-p99",
                "one-replica-decisions", "heap").doesNotContainValue(false);
    }

    @Test
    void eachTargetMissedJustPastItsBound() {
        List<Row> rows = passing();
        rows.set(1, row("fanout-p100", 100, Map.of("fanOutBytesPerDecisionPerReplica", 1_100.0)));
        rows.set(3, row("cycle-r3-k1-d0", 20_000, Map.of("cpuMillisPerDecision", 0.53, "lossVs1Replica", 0.21)));
        rows.set(6, row("filter-5000", 1_000, Map.of("ratioP50ToCeiling", 3.01, "ratioP99ToCeiling", 4.01)));
        // the throughput target reads the row with the sink in the replica's JVM, not the remote-sink row
        rows.set(2, row("cycle-r1-k1-d0", 99_990, Map.of("cpuMillisPerDecision", 0.40)));
        rows.set(7, row("cycle-r1-k1-d0-in-process", 24_990, Map.of("sinkInReplicaJvm", true)));
        Map<String, Boolean> met = met(rows, heap(385));
        // 1100 / 800 = +37.5 %, and 1,100 B > 1 KiB
        assertThat(met).containsEntry("fan-out-density", false).containsEntry("fan-out-size", false)
                .containsEntry("cpu-3-vs-1-k1", false).containsEntry("loss-3-replicas-k1", false)
                .containsEntry("filter-5000-p50", false).containsEntry("filter-5000-p99", false)
                .containsEntry("one-replica-decisions", false).containsEntry("heap", false)
                .containsEntry("cpu-3-vs-1-k3", true).containsEntry("loss-3-replicas-k3", true);
    }

    @Test
    void theCpuRatioIsJudgedOnTheWholeCpuAndShowsTheJitFreePartBeside() {
        List<Row> rows = passing();
        // 3 replicas: 6.0 ms, 4.0 of it JIT; 1 replica: 1.5 ms, 0.5 of it JIT → 4.00× in all, 2.00× without JIT
        rows.set(2, row("cycle-r1-k1-d0", 25_000, Map.of("cpuMillisPerDecision", 1.5, "jitCpuMillisPerDecision", 0.5)));
        rows.set(3, row("cycle-r3-k1-d0", 20_000, Map.of("cpuMillisPerDecision", 6.0, "jitCpuMillisPerDecision", 4.0,
                "lossVs1Replica", 0.2)));
        Targets.Target cpu = Targets.evaluate(rows, heap(300)).stream()
                .filter(t -> t.id().equals("cpu-3-vs-1-k1")).findFirst().orElseThrow();
        assertThat(cpu.met()).isFalse();
        assertThat(cpu.value()).isEqualTo(4.0);
        assertThat(cpu.measured()).isEqualTo("4.00× (6.000 vs 1.500 ms); without the JIT threads 2.00× (2.000 vs "
                + "1.000 ms)");
    }

    @Test
    void fanOutThatShrinksWithDensityCountsAsChangeToo() {
        List<Row> rows = passing();
        rows.set(0, row("fanout-p10", 100, Map.of("fanOutBytesPerDecisionPerReplica", 1_000.0)));
        rows.set(1, row("fanout-p100", 100, Map.of("fanOutBytesPerDecisionPerReplica", 790.0)));
        assertThat(met(rows, heap(300))).containsEntry("fan-out-density", false).containsEntry("fan-out-size", true);
    }

    @Test
    void whatTheRunDidNotMeasureIsListedAndNotMet() {
        List<Targets.Target> targets = Targets.evaluate(List.of(), Map.of());
        assertThat(targets).hasSize(10).allSatisfy(t -> {
            assertThat(t.met()).isFalse();
            assertThat(t.value()).isNull();
            assertThat(t.measured()).isEqualTo("not measured");
        });
        // a NaN figure (a row without decisions) is not measured either
        List<Row> rows = passing();
        rows.set(2, row("cycle-r1-k1-d0", 0, Map.of("cpuMillisPerDecision", Double.NaN)));
        assertThat(met(rows, heap(300))).containsEntry("cpu-3-vs-1-k1", false);
    }

    @Test
    void aFanOutRowWithTooFewDecisionsMeasuresNoFanOut() {
        // fanout-p100 on 2026-12-02: ready, then 1 decision in its window, whose background events read as 1,560 B
        List<Row> rows = passing();
        rows.set(1, row("fanout-p100", 1, Map.of("fanOutBytesPerDecisionPerReplica", 1560.0)));
        Targets.Target density = Targets.evaluate(rows, heap(300)).stream()
                .filter(t -> t.id().equals("fan-out-density")).findFirst().orElseThrow();
        assertThat(density.measured()).isEqualTo("not measured");
        assertThat(density.met()).isFalse();
        Targets.Target size = Targets.evaluate(rows, heap(300)).stream()
                .filter(t -> t.id().equals("fan-out-size")).findFirst().orElseThrow();
        assertThat(size.value()).as("the size is the row that did measure").isEqualTo(800.0);
    }

    @Test
    void heapTargetIsTheLargestReplicaOfTheDeploymentNotTheProbe() {
        // the probe's one member holds every charge: reported, but not the target's figure
        assertThat(met(passing(), heap(600, List.of(300.0, 310.0, 320.0)))).containsEntry("heap", true);
        // any replica over the bound misses it, whichever it is
        assertThat(met(passing(), heap(300, List.of(384.5, 300.0, 300.0)))).containsEntry("heap", false);
        assertThat(met(passing(), heap(300, List.of(300.0, 300.0, 384.5)))).containsEntry("heap", false);
        Targets.Target t = Targets.evaluate(passing(), heap(600, List.of(300.0, 310.0, 320.0))).stream()
                .filter(x -> x.id().equals("heap")).findFirst().orElseThrow();
        assertThat(t.value()).isEqualTo(320.0);
        assertThat(t.target()).contains("largest replica of 3").contains("10000 nodes / 200000 pods");
    }

    @Test
    @SuppressWarnings("unchecked")
    void heapWithoutTheDeploymentRowOrWithAReplicaMissingIsNotMeasured() {
        Map<String, Object> probeOnly = heap(300);
        probeOnly.remove(Benchmark.DEPLOYMENT_HEAP);
        Map<String, Object> oneMissing = heap(300);
        ((Map<String, Object>) oneMissing.get(Benchmark.DEPLOYMENT_HEAP)).put("replicas", 4);
        for (Map<String, Object> heap : List.of(probeOnly, oneMissing)) {
            Targets.Target t = Targets.evaluate(passing(), heap).stream().filter(x -> x.id().equals("heap"))
                    .findFirst().orElseThrow();
            assertThat(t.met()).isFalse();
            assertThat(t.value()).isNull();
            assertThat(t.measured()).isEqualTo("not measured");
        }
    }

    @Test
    void markdownReportsTheProbeAndEachReplica() {
        String md = new BenchReport(Map.of(), BenchSizes.SMOKE, passing(), heap(470, List.of(300.0, 320.0, 310.0)), 1,
                List.of(), false).markdown();
        assertThat(md).contains("#### Heap of one replica holding the whole state").contains("**470 MiB**")
                .contains("#### Heap of each replica among 3").contains("| 1 | 10000 |")
                .contains("Largest replica: **320.0 MiB**").doesNotContain("did not complete");
    }

    @Test
    void benchmarkJsonCarriesMachineCommitRowsAndTargets(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("commit", "abc1234-dirty");
        machine.put("cores", 2);
        machine.put("loadAverageAtStart", "0.50 0.40 0.30");
        machine.put("loadAverageAtEnd", "1.50 0.60 0.35");
        Path file = dir.resolve("benchmark.json");
        new BenchReport(machine, BenchSizes.SMOKE, passing(), heap(300), 12.5, List.of(), false).writeJson(file);

        JsonNode root = BenchHttp.JSON.readTree(Files.readString(file));
        assertThat(root.path("schema").asText()).isEqualTo("vgpu-benchmark/v2");
        assertThat(root.path("commit").asText()).isEqualTo("abc1234-dirty");
        assertThat(root.path("machine").path("cores").asInt()).isEqualTo(2);
        assertThat(root.path("machine").path("loadAverageAtStart").asText()).isEqualTo("0.50 0.40 0.30");
        assertThat(root.path("machine").path("loadAverageAtEnd").asText()).isEqualTo("1.50 0.60 0.35");
        assertThat(root.path("rows")).hasSize(8);
        assertThat(root.path("rows").get(2).path("cpuMillisPerDecision").asDouble()).isEqualTo(0.40);
        JsonNode targets = root.path("targets");
        assertThat(targets).hasSize(10);
        for (JsonNode t : targets) {
            assertThat(t.fieldNames()).toIterable().containsExactly("id", "target", "measured", "value", "limit",
                    "met");
            assertThat(t.path("met").isBoolean()).isTrue();
        }
        assertThat(root.path("heap").path("withVerdictCache").isMissingNode()).isTrue();
        assertThat(root.path("heap").path("usedAfterGcMiB").path("withVerdictCache").asDouble()).isEqualTo(470);
        assertThat(root.path("heap").path(Benchmark.DEPLOYMENT_HEAP).path("usedAfterGcMiB")).hasSize(3);
        JsonNode heapTarget = targets.get(9);
        assertThat(heapTarget.path("id").asText()).isEqualTo("heap");
        assertThat(heapTarget.path("value").asDouble()).isEqualTo(300);
        assertThat(heapTarget.path("met").asBoolean()).isTrue();
        JsonNode fanOut = targets.get(0);
        assertThat(fanOut.path("id").asText()).isEqualTo("fan-out-density");
        assertThat(fanOut.path("value").asDouble()).isEqualTo(0.2);
        assertThat(fanOut.path("limit").asDouble()).isEqualTo(0.2);
        assertThat(fanOut.path("met").asBoolean()).isTrue();
    }
}
