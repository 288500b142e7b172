package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import java.util.List;

/**
 * The allocation decided for one claim. {@code claim} is the claim as it was given (untouched), or for
 * the extended-resource claim the object to create (it has {@code generateName}, no name); {@code
 * requestMappings} are then what the pod's {@code status.extendedResourceClaimStatus} lists (else empty).
 */
public record ClaimAllocation(ResourceClaim claim, AllocationResult allocation,
                              List<ContainerExtendedResourceRequest> requestMappings) {

    /** The finalizer kube-scheduler adds before it writes an allocation. */
    public static final String FINALIZER = "resource.kubernetes.io/delete-protection";

    /** Copies the mappings. */
    public ClaimAllocation {
        requestMappings = List.copyOf(requestMappings);
    }

    /** Whether this is the claim kube-scheduler creates for DRA-backed extended resources. */
    public boolean extendedResourceClaim() {
        return !requestMappings.isEmpty();
    }

    /**
     * The claim as kube-scheduler's PreBind writes it for {@code pod}: a copy with the delete-protection
     * finalizer, {@code status.allocation} set, and the pod appended to {@code status.reservedFor}
     * (once). The caller writes it (and, for the extended-resource claim, gives it a name first).
     */
    public ResourceClaim allocatedFor(Pod pod) {
        ResourceClaimBuilder b = new ResourceClaimBuilder(claim);
        if (claim.getMetadata().getFinalizers() == null || !claim.getMetadata().getFinalizers().contains(FINALIZER)) {
            b.editMetadata().addToFinalizers(FINALIZER).endMetadata();
        }
        ResourceClaim out = b.editOrNewStatus().withAllocation(allocation).endStatus().build();
        List<ResourceClaimConsumerReference> reserved = Nulls.list(out.getStatus().getReservedFor());
        if (reserved.stream().noneMatch(r -> pod.getMetadata().getUid().equals(r.getUid()))) {
            out = new ResourceClaimBuilder(out).editStatus().addNewReservedFor().withApiGroup("").withResource("pods")
                    .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).endReservedFor()
                    .endStatus().build();
        }
        return out;
    }
}
