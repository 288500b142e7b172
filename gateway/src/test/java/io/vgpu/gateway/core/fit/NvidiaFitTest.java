package io.vgpu.gateway.core.fit;

import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.fit.DeviceFixtures.gpu;
import static io.vgpu.gateway.core.fit.DeviceFixtures.percentRequest;
import static io.vgpu.gateway.core.fit.DeviceFixtures.profile;
import static io.vgpu.gateway.core.fit.DeviceFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NvidiaFitTest {

    private static final Map<String, String> NO_ANNOTATIONS = Map.of();

    /** One Fit run on a node without cordon or pair scores, policy spread, no quota. */
    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod,
                                 String policy) {
        FitContext ctx = FitContext.forPod(pod, "ns", policy, QuotaGate.NONE).onNode(Map.of(), PairScores.NONE);
        return NvidiaFit.fit(devices, request, ctx, List.of(), 0);
    }

    private static List<String> uuids(FitResult result) {
        return result.picks().stream().map(ContainerDevice::uuid).toList();
    }

    static Stream<Arguments> rejections() {
        List<DeviceUsage> twelve = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            twelve.add(gpu("sick-" + i).unhealthy().build());
        }
        twelve.add(gpu("full-0").mem(8000, 8192).build());
        twelve.add(gpu("full-1").mem(8000, 8192).build());
        return Stream.of(
                arguments("reasons sort as strings: 10/12 before 2/12", twelve, request(1, 1000, 10), NO_ANNOTATIONS,
                        "spread", "10/12 CardNotHealth, 2/12 CardInsufficientMemory"),
                arguments("health is checked before the type", List.of(gpu("a").unhealthy().type("AMD").build()),
                        request(1, 100, 10), Map.of("nvidia.com/use-gputype", "H100"), "spread", "1/1 CardNotHealth"),
                arguments("vgpu-mode mismatch is a type mismatch", List.of(gpu("a").mode("mps").build()),
                        request(1, 100, 10), Map.of("nvidia.com/vgpu-mode", "hami-core"), "spread",
                        "1/1 CardTypeMismatch"),
                arguments("nouse-gputype is a type mismatch", List.of(gpu("a").type("NVIDIA A100").build()),
                        request(1, 100, 10), Map.of("nvidia.com/nouse-gputype", "a100"), "spread",
                        "1/1 CardTypeMismatch"),
                arguments("mutex in a policy chain skips busy cards", List.of(gpu("a").used(1).build()),
                        request(1, 100, 10), NO_ANNOTATIONS, "binpack, mutex", "1/1 ExclusiveDeviceAllocateConflict"),
                arguments("clamped cores still need a free card", List.of(gpu("a").cores(1, 100).build()),
                        request(1, 100, 250), NO_ANNOTATIONS, "spread", "1/1 CardInsufficientCore"),
                arguments("percentage memory is resolved per card",
                        List.of(gpu("a").mem(7000, 8192).build()), percentRequest(1, 25, 0), NO_ANNOTATIONS,
                        "spread", "1/1 CardInsufficientMemory"),
                arguments("slot check comes before the mutex check", List.of(gpu("a").used(10).build()),
                        request(1, 100, 10), NO_ANNOTATIONS, "mutex", "1/1 CardTimeSlicingExhausted"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void rejections(String name, List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod,
                    String policy, String reason) {
        FitResult result = fit(devices, request, pod, policy);
        assertThat(result.fit()).isFalse();
        assertThat(result.rejection().hamiText()).isEqualTo(reason);
    }

    static Stream<Arguments> successes() {
        return Stream.of(
                arguments("walks from the last device", List.of(gpu("a").build(), gpu("b").build()),
                        request(1, 100, 10), NO_ANNOTATIONS, "spread", List.of("b")),
                arguments("picks keep walk order", List.of(gpu("a").build(), gpu("b").build(), gpu("c").build()),
                        request(2, 100, 10), NO_ANNOTATIONS, "spread", List.of("c", "b")),
                arguments("numa-bind restarts the run on a NUMA change",
                        List.of(gpu("n0-a").numa(0).build(), gpu("n0-b").numa(0).build(), gpu("n1-a").numa(1).build()),
                        request(2, 100, 10), Map.of("nvidia.com/numa-bind", "1"), "spread", List.of("n0-b", "n0-a")),
                arguments("without numa-bind NUMA does not matter",
                        List.of(gpu("n0-a").numa(0).build(), gpu("n0-b").numa(0).build(), gpu("n1-a").numa(1).build()),
                        request(2, 100, 10), NO_ANNOTATIONS, "spread", List.of("n1-a", "n0-b")),
                arguments("a request for no card takes the first eligible device and nothing else",
                        List.of(gpu("a").build(), gpu("b").unhealthy().build()), request(0, 100, 10), NO_ANNOTATIONS,
                        "spread", List.of()),
                arguments("topology-aware: best pair among four by pair score",
                        List.of(gpu("a").build(), gpu("b").build(), gpu("c").build(), gpu("d").build()),
                        request(2, 100, 10), NO_ANNOTATIONS, "spread,topology-aware", List.of("c", "a")),
                arguments("MIG: one physical GPU takes several instances",
                        List.of(gpu("mig0").count(7).mem(0, 81920)
                                .mig(profile("1g.10gb", 9984, 14, 1, 0, 1, 2, 3, 4, 5, 6)).build()),
                        request(3, 9000, 0), NO_ANNOTATIONS, "spread", List.of("mig0", "mig0", "mig0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void successes(String name, List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod,
                   String policy, List<String> picked) {
        PairScores scores = new PairScores(Map.of("c", Map.of("a", 50, "b", 1, "d", 1), "a", Map.of("d", 40)));
        FitContext ctx = FitContext.forPod(pod, "ns", policy, QuotaGate.NONE).onNode(Map.of(), scores);
        FitResult result = NvidiaFit.fit(devices, request, ctx, List.of(), 0);
        assertThat(result.fit()).as(String.valueOf(result.rejection())).isTrue();
        assertThat(uuids(result)).containsExactlyElementsOf(picked);
        assertThat(result.rejection()).isNull();
    }

    @Test
    void picksCarryIndexVendorResolvedMemoryAndClampedCores() {
        FitResult result = fit(List.of(gpu("a").index(3).mem(0, 10000).build()),
                new ContainerRequest(1, Vendor.NVIDIA, 0, 33, 150), NO_ANNOTATIONS, "spread");
        assertThat(result.picks()).containsExactly(new ContainerDevice(3, "a", Vendor.NVIDIA, 3300, 100));
    }

    @Test
    void handBuiltZeroPercentageAsksForNoMemory() {
        FitResult result = fit(List.of(gpu("a").mem(8192, 8192).build()),
                new ContainerRequest(1, Vendor.NVIDIA, 0, 0, 10), NO_ANNOTATIONS, "spread");
        assertThat(result.picks()).extracting(ContainerDevice::usedmem).containsExactly(0);
    }

    @Test
    void cordonComesFromTheNodeAnnotation() {
        FitContext ctx = FitContext.forPod(NO_ANNOTATIONS, "ns", "spread", QuotaGate.NONE)
                .onNode(Map.of("hami.io/device-cordon", "b"), PairScores.NONE);
        FitResult result = NvidiaFit.fit(List.of(gpu("a").unhealthy().build(), gpu("b").unhealthy().build()),
                request(1, 100, 10), ctx, List.of(), 0);
        assertThat(result.rejection().hamiText()).as("health is checked before the cordon").isEqualTo("2/2 CardNotHealth");
        result = NvidiaFit.fit(List.of(gpu("a").build(), gpu("b").build()), request(2, 100, 10), ctx, List.of(), 0);
        assertThat(result.rejection().hamiText()).isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 CardCordoned");
        assertThat(uuids(result)).containsExactly("a");
    }

    @Test
    void topologyAwareWithTooFewCardsFailsWithThePartialSelection() {
        FitResult result = fit(List.of(gpu("a").build(), gpu("b").mem(8192, 8192).build()), request(2, 100, 10),
                NO_ANNOTATIONS, "topology-aware");
        assertThat(result.fit()).isFalse();
        assertThat(result.rejection().hamiText()).isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 CardInsufficientMemory");
        assertThat(uuids(result)).containsExactly("a");
    }

    @Test
    void migPlacementsInUseAndEarlierPicksBlockFurtherInstances() {
        DeviceUsage mig = gpu("mig0").count(7).mem(0, 81920).mig(profile("3g.40gb", 40000, 42, 4, 0, 4))
                .migUsed("3g.40gb", 4, 4).build();
        FitResult one = fit(List.of(mig), request(1, 20000, 0), NO_ANNOTATIONS, "spread");
        assertThat(one.fit()).isTrue();
        FitResult two = fit(List.of(mig), request(2, 20000, 0), NO_ANNOTATIONS, "spread");
        assertThat(two.fit()).isFalse();
        assertThat(two.rejection().hamiText()).isEqualTo("1/1 AllocatedCardsInsufficientRequest, 1/1 CardMigTopologyInfeasible");
    }

    @Test
    void topologyAwareRevisitsAMigCardUntilItsPlacementsRunOut() {
        DeviceUsage mig = gpu("mig0").count(7).mem(0, 81920).mig(profile("2g.20gb", 19968, 28, 2, 0, 2, 4)).build();
        FitResult result = fit(List.of(mig), request(2, 10000, 0), NO_ANNOTATIONS, "topology-aware");
        assertThat(result.fit()).isTrue();
        assertThat(uuids(result)).containsExactly("mig0", "mig0");
    }

    @Test
    void zeroSizePlacementsCannotMakeTopologyAwareMigLoopForever() {
        DeviceUsage mig = gpu("mig0").count(7).mig(profile("1g.5gb", 4864, 14, 0, 0)).build();
        FitResult result = fit(List.of(mig), request(1, 1000, 0), NO_ANNOTATIONS, "topology-aware");
        assertThat(result.fit()).isTrue();
        assertThat(uuids(result)).containsExactly("mig0");
    }

    @Test
    void quotaGateSeesEarlierContainersThenPicksPlusCandidate() {
        List<List<List<ContainerDevice>>> calls = new ArrayList<>();
        List<Integer> initCounts = new ArrayList<>();
        QuotaGate recording = (ns, containers, initCount) -> {
            assertThat(ns).isEqualTo("team-a");
            calls.add(containers);
            initCounts.add(initCount);
            return true;
        };
        List<List<ContainerDevice>> earlier = List.of(List.of(new ContainerDevice(0, "x", Vendor.NVIDIA, 500, 5)));
        FitContext ctx = FitContext.forPod(NO_ANNOTATIONS, "team-a", "spread", recording)
                .onNode(Map.of(), PairScores.NONE);
        FitResult result = NvidiaFit.fit(List.of(gpu("a").build(), gpu("b").build()), request(2, 100, 10), ctx,
                earlier, 1);
        assertThat(result.fit()).isTrue();
        assertThat(calls).hasSize(2);
        assertThat(initCounts).containsOnly(1);
        List<List<ContainerDevice>> last = calls.get(1);
        assertThat(last).hasSize(2);
        assertThat(last.get(0)).isEqualTo(earlier.get(0));
        assertThat(last.get(1)).extracting(ContainerDevice::uuid).containsExactly("b", "a");
    }

    @Test
    void quotaRejectionIsCountedBeforeCapacity() {
        QuotaGate none = (ns, containers, initCount) -> false;
        FitContext ctx = FitContext.forPod(NO_ANNOTATIONS, "ns", "spread", none).onNode(Map.of(), PairScores.NONE);
        FitResult result = NvidiaFit.fit(List.of(gpu("a").mem(8192, 8192).build()), request(1, 100, 10), ctx,
                List.of(), 0);
        assertThat(result.rejection().hamiText()).isEqualTo("1/1 ResourceQuotaNotFit");
    }

    @Test
    void policyContainsTrimsCommaItems() {
        assertThat(FitContext.policyContains("binpack, topology-aware ", "topology-aware")).isTrue();
        assertThat(FitContext.policyContains("topology-aware-x", "topology-aware")).isFalse();
        assertThat(FitContext.resolveGpuPolicy(Map.of(), "binpack")).isEqualTo("binpack");
        assertThat(FitContext.resolveGpuPolicy(Map.of("hami.io/gpu-scheduler-policy", ""), "binpack")).isEmpty();
    }
}
