package io.vgpu.simulate.dra;

import static io.vgpu.simulate.dra.DraFixtures.DRIVER;
import static io.vgpu.simulate.dra.DraFixtures.GIB;
import static io.vgpu.simulate.dra.DraFixtures.allocated;
import static io.vgpu.simulate.dra.DraFixtures.allocator;
import static io.vgpu.simulate.dra.DraFixtures.claim;
import static io.vgpu.simulate.dra.DraFixtures.gpu;
import static io.vgpu.simulate.dra.DraFixtures.gpuClass;
import static io.vgpu.simulate.dra.DraFixtures.node;
import static io.vgpu.simulate.dra.DraFixtures.place;
import static io.vgpu.simulate.dra.DraFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.vgpu.simulate.dra.cel.QuantityValue;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** spec/dra-spec.md §7 checks 7–12 and 25 (the allocator's side), against the stand-in, with our driver's slices. */
class DraSpecChecksTest {

    private static final int SPLIT = 10;
    private final Node n = node("n1");
    private DraAllocator allocator;

    @BeforeEach
    void cluster() {
        allocator = allocator();
        allocator.putClass(gpuClass());
        allocator.putSlice(slice("n1", SPLIT, gpu(0), gpu(1)));
    }

    @Test
    void check7SingleShareGetsTheFirstDeviceWithShareIdAllCapacitiesAndTheNodeSelector() {
        var a = allocated(place(allocator, claim("c").request("gpu", "memory", "4Gi", "cores", "30").build(), n));

        var allocation = a.claims().get(0).allocation();
        DeviceRequestAllocationResult r = allocation.getDevices().getResults().get(0);
        assertThat(List.of(r.getRequest(), r.getDriver(), r.getPool(), r.getDevice(), r.getShareID()))
                .containsExactly("gpu", DRIVER, "n1", "gpu-0", "share-0");
        // slots: not requested -> default floor(1000 / 10) = 100
        assertThat(numbers(r.getConsumedCapacity()))
                .containsExactlyInAnyOrderEntriesOf(Map.of("memory", dec(4 * GIB), "cores", dec(30), "slots", dec(100)));
        var term = allocation.getNodeSelector().getNodeSelectorTerms().get(0);
        assertThat(term.getMatchFields()).singleElement().satisfies(f -> {
            assertThat(f.getKey()).isEqualTo("metadata.name");
            assertThat(f.getOperator()).isEqualTo("In");
            assertThat(f.getValues()).containsExactly("n1");
        });
    }

    @Test
    void check8MemoryIsRoundedUpToTheNextMiB() {
        var a = allocated(place(allocator, claim("c").request("gpu", "memory", "4000000000").build(), n));

        // 4000000000 = 3814.697 MiB -> ceil to 3815 MiB = 3815 * 1048576 = 4000317440
        Quantity memory = a.claims().get(0).allocation().getDevices().getResults().get(0).getConsumedCapacity().get("memory");
        assertThat(QuantityValue.parse(memory.toString()).value()).isEqualByComparingTo("4000317440");
    }

    @Test
    void check9UnrequestedCapacitiesAreConsumedAtTheirDefaults() {
        var a = allocated(place(allocator, claim("c").request("gpu", "memory", "4Gi").build(), n));

        var consumed = numbers(a.claims().get(0).allocation().getDevices().getResults().get(0).getConsumedCapacity());
        // cores default 0, slots default floor(1000 / 10) = 100
        assertThat(consumed).containsEntry("cores", dec(0)).containsEntry("slots", dec(100)).hasSize(3);
    }

    @Test
    void check10PacksFirstFitToExhaustionAndNeverOverCommits() {
        Map<String, Integer> perDevice = new HashMap<>();
        Map<String, BigDecimal> memory = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            var a = allocated(place(allocator, claim("c" + i).request("gpu", "memory", "4Gi").build(), n));
            var r = a.claims().get(0).allocation().getDevices().getResults().get(0);
            perDevice.merge(r.getDevice(), 1, Integer::sum);
            memory.merge(r.getDevice(), numbers(r.getConsumedCapacity()).get("memory"), BigDecimal::add);
            // the first min(N, 20) = 10 land on gpu-0 (slots 10 x 100 = 1000), the rest on gpu-1
            assertThat(r.getDevice()).isEqualTo(i < SPLIT ? "gpu-0" : "gpu-1");
        }
        assertThat(perDevice).containsEntry("gpu-0", 10).containsEntry("gpu-1", 10);
        memory.values().forEach(m -> assertThat(m).isLessThanOrEqualTo(dec(80 * GIB)));

        var fresh = allocator();
        fresh.putClass(gpuClass());
        fresh.putSlice(slice("n1", SPLIT, gpu(0), gpu(1)));
        assertThat(place(fresh, claim("big").request("gpu", "memory", "81Gi").build(), n))
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void check11AnUnknownCapacityNameMakesNoDeviceEligible() {
        assertThat(place(allocator, claim("c").request("gpu", "vram", "1Gi").build(), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("cannot allocate all claims"));
    }

    @Test
    void check12DistinctAttributeSplitsTwoRequestsOverTwoGpusWhileWithoutItBothShareTheFirst() {
        var split = allocated(place(allocator, claim("a").request("r1", "memory", "10Gi").request("r2", "memory", "10Gi")
                .distinct(DRIVER + "/uuid").build(), n));
        assertThat(devices(split)).containsExactly("gpu-0", "gpu-1");

        var fresh = allocator();
        fresh.putClass(gpuClass());
        fresh.putSlice(slice("n1", SPLIT, gpu(0), gpu(1)));
        var together = allocated(place(fresh, claim("b").request("r1", "memory", "10Gi").request("r2", "memory", "10Gi")
                .build(), n));
        assertThat(devices(together)).containsExactly("gpu-0", "gpu-0");
    }

    @Test
    void check25AnExtendedResourceOnANodeThatDoesNotAdvertiseItBecomesAClaimAtTheCapacityDefaults() {
        allocator.putClass(new DeviceClassBuilder(gpuClass()).editSpec().withExtendedResourceName("nvidia.com/gpu")
                .endSpec().build());
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withUid("uid-p").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec().build();

        var a = allocated(allocator.allocate(pod, n));

        ClaimAllocation c = a.claims().get(0);
        assertThat(c.extendedResourceClaim()).isTrue();
        assertThat(c.claim().getMetadata().getGenerateName()).isEqualTo("p-extended-resources-");
        assertThat(c.claim().getMetadata().getAnnotations()).containsEntry("resource.kubernetes.io/extended-resource-claim", "true");
        assertThat(c.claim().getSpec().getDevices().getRequests().get(0).getName()).isEqualTo("container-0-request-0");
        assertThat(c.requestMappings()).singleElement().satisfies(m -> {
            assertThat(m.getContainerName()).isEqualTo("main");
            assertThat(m.getRequestName()).isEqualTo("container-0-request-0");
            assertThat(m.getResourceName()).isEqualTo("nvidia.com/gpu");
        });
        var r = c.allocation().getDevices().getResults().get(0);
        assertThat(r.getDevice()).isEqualTo("gpu-0");
        assertThat(r.getShareID()).isNotNull();
        // defaults: memory the whole card (80 GiB), cores 0, slots floor(1000 / 10) = 100
        assertThat(numbers(r.getConsumedCapacity()))
                .containsExactlyInAnyOrderEntriesOf(Map.of("memory", dec(80 * GIB), "cores", dec(0), "slots", dec(100)));

        Node advertising = new NodeBuilder(n).editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("4")).endStatus().build();
        assertThat(allocator.allocate(pod, advertising)).isEqualTo(new AllocationOutcome.Allocated(List.of()));
    }

    static Map<String, BigDecimal> numbers(Map<String, Quantity> quantities) {
        Map<String, BigDecimal> out = new HashMap<>();
        quantities.forEach((k, v) -> out.put(k, QuantityValue.parse(v.toString()).value().stripTrailingZeros()));
        return out;
    }

    static BigDecimal dec(long v) {
        return BigDecimal.valueOf(v).stripTrailingZeros();
    }

    static List<String> devices(AllocationOutcome.Allocated a) {
        return a.claims().get(0).allocation().getDevices().getResults().stream()
                .map(DeviceRequestAllocationResult::getDevice).toList();
    }
}
