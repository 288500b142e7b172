package io.vgpu.simulate.dra;

import static io.vgpu.simulate.dra.DraFixtures.CLASS;
import static io.vgpu.simulate.dra.DraFixtures.DRIVER;
import static io.vgpu.simulate.dra.DraFixtures.allocated;
import static io.vgpu.simulate.dra.DraFixtures.allocator;
import static io.vgpu.simulate.dra.DraFixtures.claim;
import static io.vgpu.simulate.dra.DraFixtures.gpu;
import static io.vgpu.simulate.dra.DraFixtures.gpuClass;
import static io.vgpu.simulate.dra.DraFixtures.node;
import static io.vgpu.simulate.dra.DraFixtures.place;
import static io.vgpu.simulate.dra.DraFixtures.pod;
import static io.vgpu.simulate.dra.DraFixtures.q;
import static io.vgpu.simulate.dra.DraFixtures.slice;
import static io.vgpu.simulate.dra.DraSpecChecksTest.devices;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The search itself: backtracking, firstAvailable, All, taints, constraints, in-flight claims, pools. */
class DraAllocatorSearchTest {

    private final Node n = node("n1");

    private DraAllocator cluster(ResourceSlice... slices) {
        DraAllocator allocator = allocator();
        allocator.putClass(gpuClass());
        for (ResourceSlice s : slices) {
            allocator.putSlice(s);
        }
        return allocator;
    }

    @Test
    void backtracksWhenTheFirstChoiceDeadEnds() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0), gpu(1).memGiB(24).product("NVIDIA A30")));
        // r1 first takes gpu-0 (20Gi), then r2 (70Gi on an A100) finds 60Gi left there and no other A100:
        // the search undoes r1's pick and moves it to gpu-1 (24Gi), leaving gpu-0 whole for r2
        ResourceClaim c = claim("c").request("r1", "memory", "20Gi")
                .request("r2", 1, List.of("device.attributes['gpu.vgpu.io'].productName.startsWith('NVIDIA A100')"),
                        "memory", "70Gi").build();

        var a = allocated(place(allocator, c, n));

        assertThat(devices(a)).containsExactly("gpu-1", "gpu-0");
        // share-0 went to the abandoned first pick
        assertThat(a.claims().get(0).allocation().getDevices().getResults())
                .extracting(DeviceRequestAllocationResult::getShareID).containsExactly("share-1", "share-2");
    }

    @Test
    void firstAvailableTakesTheFirstSubrequestThatFitsAndNamesIt() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0), gpu(1)));
        DeviceRequest prioritized = new DeviceRequestBuilder().withName("gpu")
                .addNewFirstAvailable().withName("big").withDeviceClassName(CLASS).withNewCapacity()
                .addToRequests("memory", q("100Gi")).endCapacity().endFirstAvailable()
                .addNewFirstAvailable().withName("small").withDeviceClassName(CLASS).withNewCapacity()
                .addToRequests("memory", q("8Gi")).endCapacity().endFirstAvailable().build();
        ResourceClaim c = new ResourceClaimBuilder(claim("c").request(prioritized).build()).editSpec().editDevices()
                .addNewConfig().withRequests("gpu/big").withNewOpaque().withDriver(DRIVER).withParameters(Map.of("a", 1))
                .endOpaque().endConfig()
                .addNewConfig().withRequests("gpu/small").withNewOpaque().withDriver(DRIVER).withParameters(Map.of("b", 2))
                .endOpaque().endConfig()
                .endDevices().endSpec().build();

        var allocation = allocated(place(allocator, c, n)).claims().get(0).allocation();

        assertThat(allocation.getDevices().getResults()).singleElement()
                .satisfies(r -> assertThat(r.getRequest()).isEqualTo("gpu/small"));
        // only the chosen subrequest's config; it covers every request, so its list is emptied
        assertThat(allocation.getDevices().getConfig()).singleElement().satisfies(cfg -> {
            assertThat(cfg.getSource()).isEqualTo("FromClaim");
            assertThat(cfg.getOpaque().getParameters()).isEqualTo(Map.of("b", 2));
            assertThat(cfg.getRequests()).isEmpty();
        });
    }

    @Test
    void firstAvailableKeepsItsOrderWhenSeveralSubrequestsFit() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)));
        DeviceRequest prioritized = new DeviceRequestBuilder().withName("gpu")
                .addNewFirstAvailable().withName("large").withDeviceClassName(CLASS).withNewCapacity()
                .addToRequests("memory", q("40Gi")).endCapacity().endFirstAvailable()
                .addNewFirstAvailable().withName("small").withDeviceClassName(CLASS).withNewCapacity()
                .addToRequests("memory", q("8Gi")).endCapacity().endFirstAvailable().build();

        var results = allocated(place(allocator, claim("c").request(prioritized).build(), n)).claims().get(0)
                .allocation().getDevices().getResults();

        assertThat(results).extracting(DeviceRequestAllocationResult::getRequest).containsExactly("gpu/large");
    }

    @Test
    void allModeTakesEveryMatchingDeviceAndFailsOnAnIncompletePool() {
        DeviceRequest all = new DeviceRequestBuilder().withName("all").withNewExactly().withDeviceClassName(CLASS)
                .withAllocationMode("All").endExactly().build();
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0), gpu(1)));

        assertThat(devices(allocated(place(allocator, claim("c").request(all).build(), n)))).containsExactly("gpu-0", "gpu-1");

        ResourceSlice half = new ResourceSliceBuilder(slice("n1", 4, gpu(0))).editSpec().editPool()
                .withResourceSliceCount(2L).endPool().endSpec().build();
        assertThat(place(cluster(half), claim("d").request(all).build(), n)).isEqualTo(new AllocationOutcome.Failed(
                "claim ns/d, request all: asks for all devices, but resource pool gpu.vgpu.io/n1 is currently being updated"));
        // ExactCount skips the incomplete pool instead
        assertThat(place(cluster(half), claim("e").request("gpu").build(), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("cannot allocate all claims"));
    }

    @Test
    void taintsNeedTolerationsWhichTheResultCopies() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0).taint("unhealthy", "NoSchedule"),
                gpu(1).taint("xid", "NoExecute"), gpu(2).taint("note", "None")));

        assertThat(devices(allocated(place(allocator, claim("a").request("gpu").build(), n)))).containsExactly("gpu-2");

        DeviceRequest tolerant = new DeviceRequestBuilder().withName("gpu").withNewExactly().withDeviceClassName(CLASS)
                .addNewToleration().withKey("unhealthy").withOperator("Exists").endToleration().endExactly().build();
        var a = allocated(place(allocator, claim("b").request(tolerant).build(), n));
        assertThat(devices(a)).containsExactly("gpu-0");
        assertThat(a.claims().get(0).allocation().getDevices().getResults().get(0).getTolerations())
                .singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("unhealthy"));
    }

    @Test
    void matchAttributeKeepsDevicesOnOneNumaNodeAndRejectsDevicesWithoutTheAttribute() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0).numa(0), gpu(1).numa(1), gpu(2).numa(1)));
        // r1 takes gpu-0 (numa 0); r2 may not use gpu-0 and finds only numa-1 cards: back to r1 on gpu-1
        ResourceClaim c = claim("c").request("r1", "memory", "4Gi")
                .request("r2", 1, List.of("device.attributes['gpu.vgpu.io'].index != 0"), "memory", "4Gi")
                .match(DRIVER + "/numa").build();

        assertThat(devices(allocated(place(allocator, c, n)))).containsExactly("gpu-1", "gpu-1");

        DraAllocator noNuma = cluster(slice("n1", 4, gpu(0), gpu(1)));
        assertThat(place(noNuma, claim("d").request("r1").match(DRIVER + "/numa").build(), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("cannot allocate all claims"));
    }

    @Test
    void inFlightAllocationsCountUntilUnreserved() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)));
        ResourceClaim exclusive = claim("x").request("gpu", "slots", "1000").build();
        allocator.putClaim(exclusive);
        Pod first = pod("first", "x");
        var a = allocated(allocator.allocate(first, n));
        allocator.reserve(first, a);

        ResourceClaim other = claim("y").request("gpu").build();
        allocator.putClaim(other);
        Pod second = pod("second", "y");
        assertThat(allocator.allocate(second, n)).isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(allocator.allocate(pod("third", "x"), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("resourceclaim ns/x is in the process of being allocated"));

        // written and unreserved: counted once, through the claim
        allocator.putClaim(a.claims().get(0).allocatedFor(first));
        allocator.unreserve(first);
        assertThat(allocator.allocate(second, n)).isInstanceOf(AllocationOutcome.Unschedulable.class);

        allocator.putClaim(exclusive);
        assertThat(allocator.allocate(second, n)).isInstanceOf(AllocationOutcome.Allocated.class);
    }

    @Test
    void aShareInFlightAndWrittenAtOnceIsCountedOnce() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)));
        allocator.putClaim(claim("x").request("gpu", "memory", "48Gi").build());
        Pod first = pod("first", "x");
        var a = allocated(allocator.allocate(first, n));
        allocator.reserve(first, a);
        allocator.putClaim(a.claims().get(0).allocatedFor(first));

        // 48Gi + 30Gi = 78Gi <= 80Gi: fits only if the share is counted once (twice would be 126Gi)
        allocator.putClaim(claim("y").request("gpu", "memory", "30Gi").build());
        assertThat(allocator.allocate(pod("second", "y"), n)).isInstanceOf(AllocationOutcome.Allocated.class);
        allocator.putClaim(claim("z").request("gpu", "memory", "33Gi").build());
        assertThat(allocator.allocate(pod("third", "z"), n)).isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void anExclusiveDeviceIsUsedOnceAndItsCapacityOnlyFilters() {
        ResourceSlice plain = new ResourceSliceBuilder(slice("n1", 4, gpu(0), gpu(1))).editSpec()
                .editFirstDevice().withAllowMultipleAllocations(false).endDevice().endSpec().build();
        DraAllocator allocator = cluster(plain);

        var first = allocated(place(allocator, claim("a").request("gpu", "memory", "4Gi").build(), n));
        DeviceRequestAllocationResult r = first.claims().get(0).allocation().getDevices().getResults().get(0);
        assertThat(r.getDevice()).isEqualTo("gpu-0");
        assertThat(r.getShareID()).isNull();
        assertThat(r.getConsumedCapacity()).isNullOrEmpty();

        assertThat(devices(allocated(place(allocator, claim("b").request("gpu", "memory", "4Gi").build(), n))))
                .containsExactly("gpu-1");
    }

    @Test
    void classConfigComesBeforeClaimConfig() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)));
        allocator.putClass(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder(gpuClass()).editSpec()
                .addNewConfig().withNewOpaque().withDriver(DRIVER).withParameters(Map.of("from", "class")).endOpaque()
                .endConfig().endSpec().build());
        // memory named: unnamed, each request would take the whole card (its default) and not both would fit
        ResourceClaim c = new ResourceClaimBuilder(claim("c").request("r1", "memory", "4Gi").request("r2", "memory", "4Gi")
                .build()).editSpec().editDevices()
                .addNewConfig().withRequests("r2").withNewOpaque().withDriver(DRIVER).withParameters(Map.of("from", "claim"))
                .endOpaque().endConfig().endDevices().endSpec().build();

        var config = allocated(place(allocator, c, n)).claims().get(0).allocation().getDevices().getConfig();

        assertThat(config).extracting(cfg -> cfg.getSource() + ":" + cfg.getRequests())
                .containsExactly("FromClass:[]", "FromClaim:[r2]");
    }

    @Test
    void prefilterRefusesMissingClassesClaimsAndClaimsAllocatedElsewhere() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)), slice("n2", 4, gpu(0)));
        assertThat(allocator.allocate(pod("p", "absent"), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("resourceclaim ns/absent not found"));

        DeviceRequest otherClass = new DeviceRequestBuilder().withName("gpu").withNewExactly()
                .withDeviceClassName("nope").endExactly().build();
        allocator.putClaim(claim("k").request(otherClass).build());
        assertThat(allocator.allocate(pod("p", "k"), n)).isEqualTo(
                new AllocationOutcome.Unschedulable("claim ns/k, request gpu: device class nope does not exist"));

        Pod fromTemplate = new io.fabric8.kubernetes.api.model.PodBuilder(pod("t")).editSpec().addNewResourceClaim()
                .withName("gpu").withResourceClaimTemplateName("vgpu-abc").endResourceClaim().endSpec().build();
        assertThat(allocator.allocate(fromTemplate, n)).isEqualTo(new AllocationOutcome.Unschedulable(
                "pod ns/t: waiting for the claim of entry gpu to be created from its template"));
        Pod noClaimNeeded = new io.fabric8.kubernetes.api.model.PodBuilder(fromTemplate).withNewStatus()
                .addNewResourceClaimStatus().withName("gpu").endResourceClaimStatus().endStatus().build();
        assertThat(allocator.allocate(noClaimNeeded, n)).isEqualTo(new AllocationOutcome.Allocated(List.of()));

        place(allocator, claim("on2").request("gpu").build(), node("n2"));
        assertThat(allocator.allocate(pod("q", "on2"), n))
                .isEqualTo(new AllocationOutcome.Unschedulable("resourceclaim ns/on2 not available on the node"));
        assertThat(allocator.allocate(pod("q", "on2"), node("n2"))).isEqualTo(new AllocationOutcome.Allocated(List.of()));
    }

    @Test
    void aCelErrorFailsTheAttemptNamingClassSelectorAndDevice() {
        DraAllocator allocator = cluster(slice("n1", 4, gpu(0)));
        allocator.putClass(new io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder(gpuClass()).editSpec()
                .addNewSelector().withNewCel().withExpression("device.attributes['gpu.vgpu.io'].vram > 0").endCel()
                .endSelector().endSpec().build());

        AllocationOutcome outcome = place(allocator, claim("c").request("gpu").build(), n);

        assertThat(outcome).isInstanceOf(AllocationOutcome.Failed.class);
        assertThat(outcome.reason()).startsWith("class vgpu: selector #1 on device gpu.vgpu.io/n1/gpu-0: CEL runtime error:")
                .contains("key 'vram' is not present");
    }

    @Test
    void onlyTheNewestGenerationCountsAndAnInvalidPoolIsReported() {
        ResourceSlice old = new ResourceSliceBuilder(slice("n1", 4, 1, gpu(0), gpu(1))).editMetadata().withName("a-old")
                .endMetadata().build();
        ResourceSlice current = new ResourceSliceBuilder(slice("n1", 4, 2, gpu(5))).editMetadata().withName("b-new")
                .endMetadata().build();
        DraAllocator allocator = cluster(old, current);
        assertThat(devices(allocated(place(allocator, claim("c").request("gpu").build(), n)))).containsExactly("gpu-5");

        ResourceSlice twice = new ResourceSliceBuilder(slice("n1", 4, gpu(0))).editSpec().addToDevices(gpu(0).device(4))
                .endSpec().build();
        assertThat(place(cluster(twice), claim("d").request("gpu").build(), n)).isEqualTo(
                new AllocationOutcome.Unschedulable("cannot allocate all claims; invalid resource pools were encountered"));
    }

    @Test
    void aRepublishedSliceIsSeenByTheNextAllocation() {
        DraAllocator allocator = cluster(slice("n1", 4, 1, gpu(0)));
        assertThat(devices(allocated(place(allocator, claim("a").request("gpu", "memory", "4Gi").build(), n))))
                .containsExactly("gpu-0");

        allocator.putSlice(slice("n1", 4, 2, gpu(3)));

        assertThat(devices(allocated(place(allocator, claim("b").request("gpu", "memory", "4Gi").build(), n))))
                .containsExactly("gpu-3");
    }

    @Test
    void theSameInputsGiveTheSameAllocation() {
        ResourceClaim c = claim("c").request("r1", "memory", "20Gi").request("r2", "memory", "70Gi").build();

        var first = allocated(place(cluster(slice("n1", 4, gpu(0), gpu(1))), c, n));
        var second = allocated(place(cluster(slice("n1", 4, gpu(0), gpu(1))), c, n));

        assertThat(second).isEqualTo(first);
    }
}
