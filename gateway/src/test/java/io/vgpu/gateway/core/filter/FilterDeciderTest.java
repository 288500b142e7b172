package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FilterDeciderTest {

    private final FilterDecider decider = new FilterDecider(FilterConfig.defaults());

    private static PodSpec pod(Map<String, String> limits, Map<String, String> annotations) {
        return new PodSpec("p", "ns", "uid-1", "", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("c", limits, Map.of(), false, List.of())));
    }

    private static NodeView node(String name, int usedMem) {
        GpuDevice card = GpuFixtures.card("GPU-" + name).memMiB(8000).type("NVIDIA A100").build();
        return new NodeView(name, List.of(DeviceUsage.idle(card).plus(usedMem > 0 ? 1 : 0, usedMem, 0)), Map.of(),
                Map.of());
    }

    @Test
    void podWithoutGpuRequestPassesThrough() {
        assertThat(decider.decide(pod(Map.of("cpu", "1"), Map.of()), List.of("a"), n -> null, QuotaGate.NONE))
                .isInstanceOf(FilterDecision.PassThrough.class);
    }

    @Test
    void invalidScoringWeightsFailTheWholeCall() {
        FilterDecision d = decider.decide(pod(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "100"),
                Map.of(HamiAnnotations.DEVICE_SCORING_WEIGHTS, "slot=1")), List.of("a"), n -> node("a", 0),
                QuotaGate.NONE);
        assertThat(d).isInstanceOfSatisfying(FilterDecision.Failed.class, f -> assertThat(f.message())
                .startsWith("calcScore failed invalid hami.io/device-scoring-weights annotation").endsWith("for pod p"));
    }

    @Test
    void binpackRanksTheFullestFittingNodeFirstAndReportsTheRest() {
        Map<String, NodeView> nodes = new HashMap<>();
        nodes.put("empty", node("empty", 0));
        nodes.put("half", node("half", 4000));
        nodes.put("full", node("full", 7900));
        FilterDecision d = decider.decide(pod(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"), Map.of()),
                List.of("empty", "half", "full", "ghost"), nodes::get, QuotaGate.NONE);
        assertThat(d).isInstanceOfSatisfying(FilterDecision.Fits.class, f -> {
            assertThat(f.ranked()).extracting(Candidate::node).containsExactly("half", "empty");
            assertThat(f.rejected()).containsEntry("ghost", NodeReason.NODE_UNREGISTERED);
            assertThat(f.rejected().get("full").hamiText()).isEqualTo("1/1 CardInsufficientMemory");
            assertThat(FilterAnnotations.annotations(f.best(), 42)).containsEntry(HamiAnnotations.VGPU_NODE, "half")
                    .containsEntry(HamiAnnotations.VGPU_TIME, "42")
                    .containsEntry(HamiAnnotations.DEVICES_ALLOCATED, "GPU-half,NVIDIA,1000,0:;")
                    .containsEntry(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-half,NVIDIA,1000,0:;");
        });
    }

    @Test
    void spreadPolicyFromThePodAnnotationRanksTheEmptiestFirst() {
        Map<String, NodeView> nodes = Map.of("empty", node("empty", 0), "half", node("half", 4000));
        FilterDecision d = decider.decide(pod(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"),
                Map.of(HamiAnnotations.NODE_SCHEDULER_POLICY, "spread")), List.of("half", "empty"), nodes::get,
                QuotaGate.NONE);
        assertThat(((FilterDecision.Fits) d).best().node()).isEqualTo("empty");
    }

    @Test
    void nothingFitsGivesEveryReason() {
        FilterDecision d = decider.decide(pod(Map.of("nvidia.com/gpu", "2"), Map.of()), List.of("a"),
                n -> node("a", 0), QuotaGate.NONE);
        assertThat(d).isInstanceOfSatisfying(FilterDecision.NoFit.class,
                n -> assertThat(n.rejected()).containsOnlyKeys("a"));
    }

    @Test
    void simulationModeUsesOnlyTheNodeAnnotations() {
        GpuDevice card = GpuFixtures.card("GPU-x").memMiB(8000).type("NVIDIA A100").build();
        Map<String, Map<String, String>> request = new LinkedHashMap<>();
        request.put("template", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER, NodeRegisterCodec.encode(List.of(card))));
        request.put("bare", Map.of());
        FilterDecision d = decider.decideSimulation(pod(Map.of("nvidia.com/gpu", "1"), Map.of()), request);
        assertThat(d).isInstanceOfSatisfying(FilterDecision.Fits.class, f -> {
            assertThat(f.best().node()).isEqualTo("template");
            assertThat(f.rejected()).containsExactly(Map.entry("bare", NodeReason.NODE_UNREGISTERED));
        });
    }
}
