package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.core.webhook.AdmissionDecision;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.simulate.dra.ClaimAllocation;
import io.vgpu.simulate.dra.ClaimController;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.model.DeviceUsage;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code simulate --mode dra}'s cluster ({@link DraRun}): the pod stream translated into claim templates, the claims
 * made, allocated and bound as the stand-ins do it; no card ever holds more than its capacity; deleting the pods
 * frees every device.
 */
class DraRunTest {

    private static final NvidiaConfig NVIDIA = NvidiaConfig.defaults();

    private static List<SyntheticNode> cluster(int nodes, int gpus, int split, String... models) {
        return ClusterGenerator.generate(new ClusterSpec(nodes, gpus,
                java.util.Arrays.stream(models).map(GpuModel::byName).toList(), split, 0), 7);
    }

    private static DraRun run(List<SyntheticNode> cluster, String policy) {
        return new DraRun(cluster, new RequestDeriver(NVIDIA), policy);
    }

    private static PodSpec admitted(PodSpec pod) {
        AdmissionDecision d = ReportRunner.webhook(NVIDIA).decide(pod,
                new QuotaBook(NVIDIA.resourceMemoryName(), NVIDIA.resourceCoreName(), NVIDIA.effectiveMemoryFactor()));
        assertThat(d).isInstanceOf(AdmissionDecision.Allowed.class);
        return ((AdmissionDecision.Allowed) d).podAfter();
    }

    private static PodSpec pod(String name, String namespace, Map<String, String> limits, Map<String, String> annotations) {
        return new PodSpec(name, namespace, "uid-" + name, "", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("main", limits, Map.of(), false, List.of())));
    }

    @Test
    void noCardEverHoldsMoreThanItsCapacityAndDeletingThePodsFreesEveryDevice() {
        List<SyntheticNode> nodes = cluster(4, 2, 4, "T4", "A100-SXM4-40GB");
        Map<String, Map<String, BigDecimal>> capacity = capacities(nodes);
        DraRun run = run(nodes, "binpack");
        int bound = 0;
        for (PodSpec pod : Workloads.generate(nodes, NVIDIA, WorkloadMix.DEFAULT, 150, 7)) {
            if (run.submit(admitted(pod)) instanceof DraRun.Placement.Bound) {
                bound++;
            }
            assertWithinCapacity(run, capacity);
        }
        assertThat(bound).as("the stream fills the cluster").isGreaterThan(10).isLessThan(150);
        assertThat(Measures.utilisation(run.views(), true)).isGreaterThan(0.5);

        for (Pod p : run.pods()) {
            run.delete(p.getMetadata().getNamespace(), p.getMetadata().getName());
        }

        assertThat(run.pods()).isEmpty();
        assertThat(allocatedClaims(run)).isEmpty();
        assertThat(run.views()).allSatisfy(v -> assertThat(v.devices()).allSatisfy(d -> {
            assertThat(d.used()).isZero();
            assertThat(d.usedmem()).isZero();
            assertThat(d.usedcores()).isZero();
        }));
    }

    @Test
    void theClaimIsMadeFromAContentNamedTemplateOwnedByThePodAndReservedForIt() {
        DraRun run = run(cluster(2, 2, 4, "A100-SXM4-40GB"), "spread");
        Map<String, String> limits = Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "4096");

        var a = (DraRun.Placement.Bound) run.submit(admitted(pod("a", "team-a", limits, Map.of())));
        var b = (DraRun.Placement.Bound) run.submit(admitted(pod("b", "team-a", limits, Map.of())));
        run.submit(admitted(pod("c", "team-b", limits, Map.of())));

        assertThat(run.templates()).hasSize(2).extracting(t -> t.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("team-a", "team-b");
        assertThat(a.pod().getSpec().getResourceClaims()).singleElement()
                .satisfies(e -> assertThat(e.getResourceClaimTemplateName()).matches("vgpu-[0-9a-f]{16}"));
        assertThat(a.pod().getSpec().getResourceClaims().get(0).getResourceClaimTemplateName())
                .isEqualTo(b.pod().getSpec().getResourceClaims().get(0).getResourceClaimTemplateName());
        assertThat(a.pod().getSpec().getContainers().get(0).getResources().getClaims()).singleElement()
                .satisfies(c -> assertThat(c.getRequest()).isEqualTo("main"));
        // spread: the second pod goes to the other node
        assertThat(a.node()).isNotEqualTo(b.node());

        String claimName = a.pod().getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
        ResourceClaim claim = run.claim("team-a", claimName).orElseThrow();
        assertThat(claimName).startsWith("a-vgpu-");
        assertThat(claim.getMetadata().getAnnotations()).containsEntry(ClaimController.POD_CLAIM_NAME, "vgpu");
        assertThat(claim.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("Pod");
            assertThat(o.getUid()).isEqualTo("uid-a");
            assertThat(o.getController()).isTrue();
        });
        assertThat(claim.getMetadata().getFinalizers()).containsExactly(ClaimAllocation.FINALIZER);
        assertThat(claim.getStatus().getReservedFor()).singleElement().satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-a"));
        DeviceRequestAllocationResult result = claim.getStatus().getAllocation().getDevices().getResults().get(0);
        assertThat(result.getPool()).isEqualTo(a.node());
        assertThat(result.getConsumedCapacity().get(SliceBuilder.MEMORY)).isEqualTo(new Quantity("4Gi"));

        assertThat(run.delete("team-a", "a")).isEqualTo(1);
        assertThat(run.claim("team-a", claimName)).as("the pod's own claim goes with it").isEmpty();
    }

    @Test
    void hamiRequestsBecomeClaimRequests() {
        List<SyntheticNode> nodes = cluster(2, 4, 4, "T4", "A100-SXM4-40GB");
        DraRun run = run(nodes, "binpack");

        var pct = (DraRun.Placement.Bound) run.submit(admitted(pod("pct", "ns",
                Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "50"), Map.of())));
        var whole = (DraRun.Placement.Bound) run.submit(admitted(pod("whole", "ns",
                Map.of("nvidia.com/gpu", "1", "nvidia.com/gpucores", "100", "nvidia.com/gpumem", "1024"), Map.of())));
        var multi = (DraRun.Placement.Bound) run.submit(admitted(pod("multi", "ns",
                Map.of("nvidia.com/gpu", "4", "nvidia.com/gpumem", "1024"), Map.of())));
        var typed = (DraRun.Placement.Bound) run.submit(admitted(pod("typed", "ns",
                Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "1024"), Map.of(HamiAnnotations.USE_GPU_TYPE, "t4"))));

        DeviceRequest pctRequest = spec(run, pct).getDevices().getRequests().get(0);
        assertThat(pctRequest.getFirstAvailable()).extracting(s -> s.getCapacity().getRequests().get("memory"))
                .containsExactly(new Quantity("7680Mi"), new Quantity("20480Mi"));
        assertThat(results(run, pct)).singleElement().satisfies(r -> assertThat(r.getRequest()).startsWith("main/card-"));
        assertThat(results(run, whole)).singleElement().satisfies(r -> {
            assertThat(r.getConsumedCapacity().get("slots")).isEqualTo(new Quantity("1000"));
            assertThat(r.getConsumedCapacity().get("cores")).isEqualTo(new Quantity("100"));
        });
        assertThat(spec(run, multi).getDevices().getConstraints()).singleElement()
                .satisfies(c -> assertThat(c.getDistinctAttribute()).isEqualTo("gpu.vgpu.io/uuid"));
        Set<String> cards = new HashSet<>();
        results(run, multi).forEach(r -> cards.add(r.getPool() + "/" + r.getDevice()));
        assertThat(cards).as("four different cards").hasSize(4);
        assertThat(typed.node()).isEqualTo(nodes.get(0).name()); // the T4 node
    }

    private static io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec spec(DraRun run, DraRun.Placement.Bound b) {
        return claimOf(run, b).getSpec();
    }

    private static List<DeviceRequestAllocationResult> results(DraRun run, DraRun.Placement.Bound b) {
        return claimOf(run, b).getStatus().getAllocation().getDevices().getResults();
    }

    private static ResourceClaim claimOf(DraRun run, DraRun.Placement.Bound b) {
        return run.claim(b.pod().getMetadata().getNamespace(),
                b.pod().getStatus().getResourceClaimStatuses().get(0).getResourceClaimName()).orElseThrow();
    }

    /** Per pool/device: memory, cores and slots as the slice the node agent's builder makes publishes them. */
    private static Map<String, Map<String, BigDecimal>> capacities(List<SyntheticNode> nodes) {
        Map<String, Map<String, BigDecimal>> out = new HashMap<>();
        for (SyntheticNode n : nodes) {
            List<DeviceUsage> devices = io.vgpu.gateway.core.filter.FilterDecider.idleView(n.name(), n.annotations()).devices();
            ResourceSlice slice = DraCluster.slice(n.name(), devices);
            slice.getSpec().getDevices().forEach(d -> {
                Map<String, BigDecimal> c = new HashMap<>();
                d.getCapacity().forEach((k, v) -> c.put(k, Quantity.getAmountInBytes(v.getValue())));
                out.put(n.name() + "/" + d.getName(), c);
            });
        }
        return out;
    }

    /** Sums consumedCapacity over every allocated claim, per card, against the card's capacity. */
    private static void assertWithinCapacity(DraRun run, Map<String, Map<String, BigDecimal>> capacity) {
        Map<String, Map<String, BigDecimal>> used = new HashMap<>();
        for (ResourceClaim claim : allocatedClaims(run)) {
            for (DeviceRequestAllocationResult r : claim.getStatus().getAllocation().getDevices().getResults()) {
                Map<String, BigDecimal> u = used.computeIfAbsent(r.getPool() + "/" + r.getDevice(), k -> new HashMap<>());
                r.getConsumedCapacity().forEach((k, v) -> u.merge(k, Quantity.getAmountInBytes(v), BigDecimal::add));
            }
        }
        used.forEach((card, u) -> u.forEach((name, sum) -> assertThat(sum)
                .as("%s of %s", name, card).isLessThanOrEqualTo(capacity.get(card).get(name))));
    }

    private static List<ResourceClaim> allocatedClaims(DraRun run) {
        return run.claims().stream().filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null).toList();
    }
}
