package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.simulate.report.ReportRun;
import io.vgpu.simulate.report.SimulationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code simulate --compare-modes} in http mode: the DRA side's pods go through a running gateway's real
 * {@code /webhook} ({@link DraSimulation#runThroughGateway}) and land exactly as the in-process translation places
 * them (same cluster, same pods, same translator behind the webhook, same allocator), so the webhook's patch and
 * template are what the stand-ins consume.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: a gateway start under a heavily loaded machine
class DraThroughGatewayTest {

    private static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();

    @Test
    void podsAdmittedByTheRealWebhookLandAsTheInProcessTranslationPlacesThem() {
        List<SyntheticNode> nodes = ClusterGenerator.generate(
                new ClusterSpec(3, 2, List.of(GpuModel.byName("A100-SXM4-40GB")), 4, 0), 5);
        List<PodSpec> pods = Workloads.generate(nodes, NVIDIA, WorkloadMix.DEFAULT, 30, 5);
        DraSimulation simulation = new DraSimulation(ReportRunner.webhook(NVIDIA), NVIDIA, "binpack", Duration.ZERO);

        SimulationReport inProcess = simulation.run(nodes, pods, done -> { });
        ReportRun viaGateway = simulation.runThroughGateway("DRA via /webhook", nodes, pods, done -> { });

        SimulationReport report = viaGateway.summary();
        assertThat(inProcess.placed()).as("placed in-process").isGreaterThan(5);
        assertThat(report.placed()).as("placed through the gateway's /webhook, failures %s", report.failuresByReason())
                .isEqualTo(inProcess.placed());
        assertThat(report.failuresByReason()).as("the same refusals").isEqualTo(inProcess.failuresByReason());
    }
}
