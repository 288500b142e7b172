package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.PairScores;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.MigPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.fit.DeviceFixtures.gpu;
import static io.vgpu.gateway.core.fit.DeviceFixtures.profile;
import static io.vgpu.gateway.core.fit.DeviceFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NodeScorerTest {

    private static final ContainerRequest NONE = request(0, 0, 0);

    private static NodeVerdict score(List<ContainerRequest> containers, int initCount, String policy,
                                     List<DeviceUsage> devices) {
        return score(containers, initCount, policy, devices, Map.of(), QuotaGate.NONE);
    }

    private static NodeVerdict score(List<ContainerRequest> containers, int initCount, String policy,
                                     List<DeviceUsage> devices, Map<String, String> nodeAnnotations, QuotaGate quota) {
        PodDemand pod = new PodDemand(containers, initCount, Map.of(), "ns", policy, false, ScoringWeights.DEFAULT,
                quota);
        return new NodeScorer(pod).score(new NodeDevices("node1", devices, PairScores.NONE, nodeAnnotations));
    }

    private static List<List<String>> uuids(NodeVerdict verdict) {
        assertThat(verdict).isInstanceOf(NodeVerdict.Fits.class);
        return ((NodeVerdict.Fits) verdict).allocation().stream()
                .map(c -> c.stream().map(ContainerDevice::uuid).toList()).toList();
    }

    private static String reason(NodeVerdict verdict) {
        assertThat(verdict).isInstanceOf(NodeVerdict.Unschedulable.class);
        return ((NodeVerdict.Unschedulable) verdict).rejection().hamiText();
    }

    static Stream<Arguments> allocations() {
        return Stream.of(
                arguments("placeholders by vendor word on model-named devices (init none, app GPU)",
                        List.of(NONE, request(1, 1000, 30)), 1, "spread",
                        List.of(gpu("GPU-x").type("NVIDIA-Tesla V100-PCIE-32GB").build()),
                        List.of(List.of(), List.of("GPU-x"))),
                arguments("init containers each see the node before the pod",
                        List.of(request(1, 8192, 0), request(1, 8192, 0), request(1, 100, 10)), 2, "spread",
                        List.of(gpu("a").build()), List.of(List.of("a"), List.of("a"), List.of("a"))),
                arguments("app containers add up: an exclusive card is not shared",
                        List.of(request(1, 100, 100), request(1, 100, 100)), 0, "binpack",
                        List.of(gpu("a").build(), gpu("b").build()), List.of(List.of("b"), List.of("a"))),
                arguments("spread moves the second container to the emptier card",
                        List.of(request(1, 1000, 10), request(1, 1000, 10)), 0, "spread",
                        List.of(gpu("a").build(), gpu("b").build()), List.of(List.of("b"), List.of("a"))),
                arguments("binpack keeps the second container on the fuller card",
                        List.of(request(1, 1000, 10), request(1, 1000, 10)), 0, "binpack",
                        List.of(gpu("a").build(), gpu("b").build()), List.of(List.of("b"), List.of("b"))),
                arguments("a card type without 'nvidia' is no candidate",
                        List.of(request(1, 100, 10)), 0, "spread",
                        List.of(gpu("nv").type("Nvidia-T4").build(), gpu("amd").type("AMD-MI300").build()),
                        List.of(List.of("nv"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void allocations(String name, List<ContainerRequest> containers, int initCount, String policy,
                     List<DeviceUsage> devices, List<List<String>> expected) {
        assertThat(uuids(score(containers, initCount, policy, devices))).isEqualTo(expected);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                arguments("unknown vendor", List.of(new ContainerRequest(1, "AMD", 100, 101, 10)), 0,
                        List.of(gpu("a").build()), "Device type not found"),
                arguments("more cards than the node has", List.of(request(3, 100, 10)), 0,
                        List.of(gpu("a").build(), gpu("b").build()), "NodeInsufficientDevice"),
                arguments("models that are not NVIDIA do not count", List.of(request(2, 100, 10)), 0,
                        List.of(gpu("a").build(), gpu("b").type("AMD").build()), "NodeInsufficientDevice"),
                arguments("an init container that cannot fit rejects the node", List.of(request(1, 9000, 0), NONE), 1,
                        List.of(gpu("a").build()), "1/1 CardInsufficientMemory"),
                arguments("the first failing app container gives the reason",
                        List.of(request(1, 100, 100), request(1, 100, 100)), 0, List.of(gpu("a").build()),
                        "1/1 CardInsufficientCore"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void failures(String name, List<ContainerRequest> containers, int initCount, List<DeviceUsage> devices,
                  String expected) {
        assertThat(reason(score(containers, initCount, "spread", devices))).isEqualTo(expected);
    }

    @Test
    void nodeScoreIsTheUsageBeforeThePod() {
        NodeVerdict verdict = score(List.of(request(1, 1000, 30)), 0, "spread",
                List.of(gpu("a").used(5).count(10).mem(4000, 8000).cores(50, 100).build()));
        assertThat(((NodeVerdict.Fits) verdict).score()).isEqualTo(15f);
    }

    @Test
    void cordonedCardsAreSkipped() {
        NodeVerdict verdict = score(List.of(request(1, 100, 10)), 0, "spread",
                List.of(gpu("a").build(), gpu("b").build()), Map.of("hami.io/device-cordon", "b"), QuotaGate.NONE);
        assertThat(uuids(verdict)).containsExactly(List.of("a"));
    }

    @Test
    void migPicksAreResizedToTheirProfileAndRecorded() {
        DeviceUsage mig = gpu("mig0").count(7).mem(0, 81920).mig(profile("1g.10gb", 9856, 14, 1, 0, 1, 2, 3, 4, 5, 6),
                profile("2g.20gb", 20096, 28, 2, 0, 2, 4)).build();
        NodeVerdict verdict = score(List.of(request(2, 9000, 0), request(1, 15000, 0)), 0, "spread", List.of(mig));
        NodeVerdict.Fits fits = (NodeVerdict.Fits) verdict;
        assertThat(fits.allocation().get(0)).extracting(ContainerDevice::usedmem, ContainerDevice::usedcores)
                .containsOnly(tuple(9856, 14));
        assertThat(fits.allocation().get(1)).extracting(ContainerDevice::usedmem).containsExactly(20096);
        assertThat(fits.migAssignments()).containsExactly(
                new MigAssignment(0, 0, "mig0", "1g.10gb", new MigPlacement(6, 1)),
                new MigAssignment(0, 1, "mig0", "1g.10gb", new MigPlacement(5, 1)),
                new MigAssignment(1, 0, "mig0", "2g.20gb", new MigPlacement(0, 2)));
    }

    @Test
    void aMigRequestMayAskForMoreInstancesThanTheNodeHasCards() {
        DeviceUsage mig = gpu("mig0").count(7).mem(0, 81920).mig(profile("1g.10gb", 9856, 14, 1, 0, 1, 2)).build();
        assertThat(uuids(score(List.of(request(3, 5000, 0)), 0, "spread", List.of(mig))))
                .containsExactly(List.of("mig0", "mig0", "mig0"));
    }

    @Test
    void quotaGateSeesInitListsThenAppListsInPodOrder() {
        List<List<List<ContainerDevice>>> calls = new ArrayList<>();
        QuotaGate recording = (ns, containers, initCount) -> {
            assertThat(initCount).isEqualTo(2);
            calls.add(containers);
            return true;
        };
        score(List.of(request(1, 300, 0), NONE, request(1, 500, 0)), 2, "spread", List.of(gpu("a").build()),
                Map.of(), recording);
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0)).hasSize(1);
        List<List<ContainerDevice>> appCall = calls.get(1);
        assertThat(appCall).hasSize(3);
        assertThat(appCall.get(0)).extracting(ContainerDevice::usedmem).containsExactly(300);
        assertThat(appCall.get(1)).isEmpty();
        assertThat(appCall.get(2)).extracting(ContainerDevice::usedmem).containsExactly(500);
    }

    @Test
    void sortedOrderCarriesOverBetweenAppContainers() {
        // container 1 (spread): b is busier, so the copy is sorted [b, a] and a is picked; afterwards a and b are
        // equal, the stable sort keeps [b, a] and container 2 takes a again (registration order would give b)
        List<DeviceUsage> cards = List.of(gpu("a").build(), gpu("b").used(1).mem(1000, 8192).cores(10, 100).build());
        NodeVerdict verdict = score(List.of(request(1, 1000, 10), request(1, 1000, 10)), 0, "spread", cards);
        assertThat(uuids(verdict)).containsExactly(List.of("a"), List.of("a"));
    }
}
