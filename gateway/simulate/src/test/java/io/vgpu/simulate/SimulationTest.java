package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.webhook.WebhookConfig;
import io.vgpu.gateway.core.webhook.WebhookDecider;
import io.vgpu.simulate.report.SimulationReport;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SimulationTest {

    private static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();

    private static SimulationReport run(long seed, int nodes, int pods) {
        List<SyntheticNode> cluster = ClusterGenerator.generate(
                new ClusterSpec(nodes, 4, List.of(GpuModel.byName("A100-SXM4-40GB"), GpuModel.byName("T4")), 10, 2),
                seed);
        List<String> uuids = new ArrayList<>();
        cluster.forEach(n -> FilterDecider.idleView(n.name(), n.annotations()).devices().forEach(d -> uuids.add(d.id())));
        WorkloadGenerator gen = new WorkloadGenerator(WorkloadMix.parse(WorkloadMix.DEFAULT),
                new WorkloadGenerator.ResourceNames(NVIDIA.resourceCountName(), NVIDIA.resourceMemoryName(),
                        NVIDIA.resourceMemoryPercentageName(), NVIDIA.resourceCoreName()),
                List.of("NVIDIA A100-SXM4-40GB", "NVIDIA-Tesla T4"), uuids, seed);
        List<PodSpec> workload = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            workload.add(gen.next().pod());
        }
        return new Simulation(new WebhookDecider(WebhookConfig.single("hami-scheduler", true, NVIDIA)),
                new FilterDecider(new FilterConfig(NVIDIA, "binpack", "spread"))).run(cluster, workload, done -> { });
    }

    @Test
    void sameSeedGivesTheSamePlacements() {
        SimulationReport a = run(7, 6, 120);
        SimulationReport b = run(7, 6, 120);
        assertThat(a.placed()).isEqualTo(b.placed());
        assertThat(a.failuresByReason()).isEqualTo(b.failuresByReason());
        assertThat(a.memoryUtilisation()).isEqualTo(b.memoryUtilisation());
    }

    @Test
    void overloadedClusterFillsUpWithoutOvercommitting() {
        SimulationReport r = run(3, 4, 400);
        assertThat(r.placed()).isPositive();
        assertThat(r.failed()).isPositive();
        assertThat(r.memoryUtilisation()).isBetween(0.5, 1.0);
        assertThat(r.coreUtilisation()).isBetween(0.0, 1.0);
        assertThat(r.fragmentation()).isBetween(0.0, 1.0);
        assertThat(r.failuresByReason().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(r.failed());
        assertThat(r.table()).contains("pods placed", "fragmentation (R = ");
    }

    @Test
    void generatedRegistrationDecodesBackToTheSameDevices() {
        List<SyntheticNode> nodes = ClusterGenerator.generate(
                new ClusterSpec(3, 8, List.of(GpuModel.byName("H100")), 5, 1), 11);
        for (SyntheticNode n : nodes) {
            var devices = NodeRegisterCodec.decode(n.annotations().get(HamiAnnotations.NODE_NVIDIA_REGISTER)).value();
            assertThat(devices).hasSize(8).allSatisfy(d -> {
                assertThat(d.count()).isEqualTo(5);
                assertThat(d.devmem()).isEqualTo(81559);
                assertThat(d.health()).isTrue();
            });
            assertThat(devices.stream().filter(d -> d.numa() == 1)).hasSize(4);
            assertThat(FilterDecider.idleView(n.name(), n.annotations()).pairScores()).hasSize(8);
        }
    }
}
