package io.vgpu.simulate.dra;

import static io.vgpu.simulate.dra.DraFixtures.allocated;
import static io.vgpu.simulate.dra.DraFixtures.allocator;
import static io.vgpu.simulate.dra.DraFixtures.claim;
import static io.vgpu.simulate.dra.DraFixtures.gpu;
import static io.vgpu.simulate.dra.DraFixtures.gpuClass;
import static io.vgpu.simulate.dra.DraFixtures.node;
import static io.vgpu.simulate.dra.DraFixtures.pod;
import static io.vgpu.simulate.dra.DraFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** spec §3.6: devices come free when the last consuming pod ends; a pod's own claims go with it. */
class ClaimDeallocationTest {

    private final Map<String, Pod> pods = new HashMap<>();
    private DraAllocator allocator;
    private Pod p;
    private ResourceClaim held;

    @BeforeEach
    void allocateOneClaimForOnePod() {
        allocator = allocator();
        allocator.putClass(gpuClass());
        allocator.putSlice(slice("n1", 4, gpu(0)));
        allocator.putClaim(claim("c").request("gpu", "slots", "1000").build());
        p = running(pod("p", "c"));
        pods.put("p", p);
        held = allocated(allocator.allocate(p, node("n1"))).claims().get(0).allocatedFor(p);
        allocator.putClaim(held);
    }

    private static Pod running(Pod pod) {
        return new PodBuilder(pod).editSpec().withNodeName("n1").endSpec().withNewStatus().withPhase("Running").endStatus().build();
    }

    private ClaimDeallocation.Outcome sync(ResourceClaim claim) {
        return ClaimDeallocation.sync(claim, name -> Optional.ofNullable(pods.get(name)));
    }

    @Test
    void aRunningConsumerKeepsTheAllocation() {
        assertThat(held.getMetadata().getFinalizers()).containsExactly(ClaimAllocation.FINALIZER);
        assertThat(sync(held)).isEqualTo(new ClaimDeallocation.Outcome.Unchanged());
        assertThat(allocator.allocate(pod("q", "c"), node("n1"))).isEqualTo(new AllocationOutcome.Allocated(java.util.List.of()));
    }

    @Test
    void theLastConsumerEndingClearsAllocationReservationAndFinalizerAndFreesTheDevice() {
        allocator.putClaim(claim("other").request("gpu", "slots", "1000").build());
        assertThat(allocator.allocate(pod("q", "other"), node("n1"))).isInstanceOf(AllocationOutcome.Unschedulable.class);
        pods.put("p", new PodBuilder(p).editStatus().withPhase("Succeeded").endStatus().build());

        var outcome = sync(held);

        assertThat(outcome).isInstanceOfSatisfying(ClaimDeallocation.Outcome.Updated.class, u -> {
            assertThat(u.claim().getStatus().getAllocation()).isNull();
            assertThat(u.claim().getStatus().getReservedFor()).isEmpty();
            assertThat(u.claim().getMetadata().getFinalizers()).isEmpty();
            allocator.putClaim(u.claim());
        });
        assertThat(allocator.allocate(pod("q", "other"), node("n1"))).isInstanceOf(AllocationOutcome.Allocated.class);
    }

    @Test
    void aReplacedPodIsNoConsumer() {
        pods.put("p", new PodBuilder(p).editMetadata().withUid("another-uid").endMetadata().build());

        assertThat(sync(held)).isInstanceOf(ClaimDeallocation.Outcome.Updated.class);
    }

    @Test
    void anUnscheduledPodBeingDeletedIsNoConsumerButAScheduledOneStillIs() {
        pods.put("p", new PodBuilder(p).editMetadata().withDeletionTimestamp("2026-12-01T00:00:00Z").endMetadata().build());
        assertThat(sync(held)).isEqualTo(new ClaimDeallocation.Outcome.Unchanged());

        pods.put("p", new PodBuilder(pods.get("p")).editSpec().withNodeName(null).endSpec().build());
        assertThat(sync(held)).isInstanceOf(ClaimDeallocation.Outcome.Updated.class);
    }

    @Test
    void aTemplateClaimWhoseOwningPodEndedIsDeleted() {
        ResourceClaim fromTemplate = new ResourceClaimBuilder(held).editMetadata()
                .addToAnnotations("resource.kubernetes.io/pod-claim-name", "gpu")
                .addNewOwnerReference().withKind("Pod").withName("p").withUid("uid-p").withController(true).endOwnerReference()
                .endMetadata().build();
        pods.remove("p");

        assertThat(sync(fromTemplate)).isEqualTo(new ClaimDeallocation.Outcome.Deleted(fromTemplate));
    }

    @Test
    void aDeletingClaimWithoutConsumersGoesAway() {
        ResourceClaim deleting = new ResourceClaimBuilder(held).editMetadata().withDeletionTimestamp("2026-12-01T00:00:00Z")
                .endMetadata().build();
        pods.remove("p");

        assertThat(sync(deleting)).isEqualTo(new ClaimDeallocation.Outcome.Deleted(deleting));
    }
}
