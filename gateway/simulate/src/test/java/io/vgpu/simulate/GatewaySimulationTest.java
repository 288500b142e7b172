package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code simulate --mode http} end to end: the real gateway on a small simulated cluster, 50 pods through
 * webhook → filter → bind over HTTP, then the API server's pods checked against the report and the capacity rule.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GatewaySimulationTest {

    private static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();
    private static final int PODS = 50;

    private static SimulatedCluster cluster;
    private static SimulationReport report;
    private static List<Pod> pods;
    private static List<Node> nodes;

    @BeforeAll
    static void runSmallSimulation() {
        List<SyntheticNode> synthetic = ClusterGenerator.generate(
                new ClusterSpec(4, 4, List.of(GpuModel.byName("A100-SXM4-40GB"), GpuModel.byName("T4")), 4, 2), 5);
        List<PodSpec> workload = Workloads.generate(synthetic, NVIDIA, WorkloadMix.DEFAULT, PODS, 5);
        cluster = SimulatedCluster.start(new SimulatedCluster.Settings("binpack", "spread", "127.0.0.1", 0, 0, 0,
                Duration.ZERO), synthetic);
        report = new GatewaySimulation(cluster, 4, NVIDIA).run(workload, done -> { });
        pods = cluster.client().pods().inAnyNamespace().list().getItems();
        nodes = cluster.client().nodes().list().getItems();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void reportAddsUpAndFillsTheClusterPartly() {
        assertThat(report.pods()).isEqualTo(PODS);
        assertThat(report.nodes()).isEqualTo(4);
        assertThat(report.gpus()).isEqualTo(16);
        assertThat(report.placed()).isPositive();
        assertThat(report.failed()).isPositive(); // 16 GPUs x 4 slots cannot take 50 pods of this mix
        assertThat(report.failuresByReason().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(report.failed());
        assertThat(report.failuresByReason()).allSatisfy((reason, n) ->
                assertThat(reason).doesNotStartWith("simulator:").doesNotStartWith("bind error").doesNotContain("HTTP"));
        assertThat(report.latencies()).extracting(SimulationReport.Latency::what)
                .containsExactly("webhook", "filter", "bind", "whole cycle");
        assertThat(report.latencies().get(0).samples()).isEqualTo(PODS);
        assertThat(report.latencies().get(2).samples()).isGreaterThanOrEqualTo(report.placed());
        assertThat(report.latencies()).allSatisfy(l -> assertThat(l.p99Micros()).isGreaterThanOrEqualTo(l.p50Micros()));
        assertThat(report.table()).contains("mode", "http", "latency filter p50 / p99", "pods placed");
    }

    @Test
    void everyPlacedPodIsBoundWithTheHamiAnnotationsAndABinding() {
        List<Pod> bound = pods.stream().filter(p -> p.getSpec().getNodeName() != null).toList();
        assertThat(pods).hasSize(PODS); // the webhook admits all of them; the unplaced ones stay Pending
        assertThat(bound).hasSize(report.placed());
        for (Pod pod : bound) {
            String node = pod.getSpec().getNodeName();
            Map<String, String> a = pod.getMetadata().getAnnotations();
            assertThat(a).as(pod.getMetadata().getName())
                    .containsEntry(HamiAnnotations.VGPU_NODE, node)
                    .containsEntry(HamiAnnotations.BIND_PHASE, "success")
                    .containsKeys(HamiAnnotations.VGPU_TIME, HamiAnnotations.BIND_TIME);
            assertThat(a.get(HamiAnnotations.VGPU_TIME)).matches("[0-9]+");
            assertThat(PodDevicesCodec.decode(a.get(HamiAnnotations.DEVICES_ALLOCATED)).isOk()).isTrue();
            assertThat(a.get(HamiAnnotations.DEVICES_TO_ALLOCATE)).matches(";+"); // erased by the device plugin
            assertThat(pod.getMetadata().getLabels()).containsEntry(HamiAnnotations.VGPU_NODE, node);
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("hami-scheduler");
            assertThat(cluster.apiServer().bindings()).anySatisfy(b -> {
                assertThat(b.pod()).isEqualTo(pod.getMetadata().getName());
                assertThat(b.node()).isEqualTo(node);
                assertThat(b.status()).isEqualTo(201);
            });
        }
        // every lock released (the mock keeps a key merged to null where a real API server deletes it)
        assertThat(nodes).allSatisfy(n -> assertThat(n.getMetadata().getAnnotations().get(HamiAnnotations.NODE_LOCK))
                .isNull());
    }

    @Test
    void noDeviceIsOverCommittedAndTheReportMatchesTheApiServer() {
        Map<String, GpuDevice> devices = new HashMap<>();
        for (Node n : nodes) {
            NodeRegisterCodec.decode(n.getMetadata().getAnnotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).value()
                    .forEach(d -> devices.put(d.id(), d));
        }
        Map<String, long[]> granted = new HashMap<>(); // uuid -> {memory, cores, slots}
        for (Pod pod : pods) {
            if (pod.getSpec().getNodeName() == null) {
                continue;
            }
            List<ContainerDevice> all = new ArrayList<>();
            PodDevicesCodec.decode(pod.getMetadata().getAnnotations().get(HamiAnnotations.DEVICES_ALLOCATED)).value()
                    .forEach(all::addAll);
            for (ContainerDevice d : all) {
                long[] g = granted.computeIfAbsent(d.uuid(), k -> new long[3]);
                g[0] += d.usedmem();
                g[1] += d.usedcores();
                g[2]++;
            }
        }
        long usedMemory = 0;
        for (Map.Entry<String, long[]> e : granted.entrySet()) {
            GpuDevice card = devices.get(e.getKey());
            assertThat(card).as(e.getKey()).isNotNull();
            assertThat(e.getValue()[0]).as("memory of " + e.getKey()).isLessThanOrEqualTo(card.devmem());
            assertThat(e.getValue()[1]).as("cores of " + e.getKey()).isLessThanOrEqualTo(card.devcore());
            assertThat(e.getValue()[2]).as("slots of " + e.getKey()).isLessThanOrEqualTo(card.count());
            usedMemory += e.getValue()[0];
        }
        long totalMemory = devices.values().stream().mapToLong(GpuDevice::devmem).sum();
        assertThat(report.memoryUtilisation()).isCloseTo((double) usedMemory / totalMemory,
                org.assertj.core.data.Offset.offset(1e-9));
    }
}
