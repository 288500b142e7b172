package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * kube-controller-manager's {@code resourceclaim} controller for one claim (spec §3.6), as a pure function
 * the simulator calls when pods change:
 * <pre>
 *   reservedFor entries whose pod is gone, replaced (other UID) or done (Succeeded/Failed,
 *     or deleted while never scheduled) are dropped
 *   no consumer left → status.allocation cleared (only if the delete-protection finalizer is there)
 *     and the finalizer removed                          → Updated, or Deleted if the claim was deleting
 *   a claim the controller or the scheduler made for a pod (template or extended-resource claim),
 *     with no consumer and its owning pod done, gone or replaced   → Deleted
 * </pre>
 * So devices come free when the last consuming pod ends, not when it is merely unscheduled.
 */
public final class ClaimDeallocation {

    private ClaimDeallocation() {
    }

    /**
     * What the controller would do to {@code claim}, looking pods up by name in the claim's namespace.
     *
     * @param podsByName the live pod of that name in the claim's namespace, if any
     */
    public static Outcome sync(ResourceClaim claim, Function<String, Optional<Pod>> podsByName) {
        List<ResourceClaimConsumerReference> reserved = claim.getStatus() == null ? List.of()
                : Nulls.list(claim.getStatus().getReservedFor());
        List<ResourceClaimConsumerReference> kept = new ArrayList<>();
        for (ResourceClaimConsumerReference r : reserved) {
            if (!"pods".equals(r.getResource()) || live(r.getName(), r.getUid(), podsByName)) {
                kept.add(r);
            }
        }
        boolean allocated = claim.getStatus() != null && claim.getStatus().getAllocation() != null;
        if (kept.isEmpty() && ownedByEndedPod(claim, podsByName)) {
            return new Outcome.Deleted(claim);
        }
        if (kept.size() == reserved.size() && !(kept.isEmpty() && (allocated || hasFinalizer(claim)))) {
            return new Outcome.Unchanged();
        }
        ResourceClaimBuilder b = new ResourceClaimBuilder(claim).editOrNewStatus().withReservedFor(kept).endStatus();
        if (kept.isEmpty()) {
            if (hasFinalizer(claim)) {
                b.editStatus().withAllocation(null).endStatus();
            }
            List<String> finalizers = new ArrayList<>(Nulls.list(claim.getMetadata().getFinalizers()));
            finalizers.remove(ClaimAllocation.FINALIZER);
            b.editMetadata().withFinalizers(finalizers).endMetadata();
            if (claim.getMetadata().getDeletionTimestamp() != null && finalizers.isEmpty()) {
                return new Outcome.Deleted(claim);
            }
        }
        return new Outcome.Updated(b.build());
    }

    private static boolean live(String name, String uid, Function<String, Optional<Pod>> pods) {
        Optional<Pod> pod = pods.apply(name);
        return pod.isPresent() && uid != null && uid.equals(pod.get().getMetadata().getUid()) && !done(pod.get());
    }

    private static boolean done(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        boolean neverScheduled = pod.getSpec() == null || pod.getSpec().getNodeName() == null
                || pod.getSpec().getNodeName().isEmpty();
        return "Succeeded".equals(phase) || "Failed".equals(phase)
                || (pod.getMetadata().getDeletionTimestamp() != null && neverScheduled);
    }

    private static boolean ownedByEndedPod(ResourceClaim claim, Function<String, Optional<Pod>> pods) {
        var annotations = Nulls.map(claim.getMetadata().getAnnotations());
        boolean madeForPod = annotations.containsKey("resource.kubernetes.io/pod-claim-name")
                || "true".equals(annotations.get(ExtendedResources.ANNOTATION));
        if (!madeForPod) {
            return false;
        }
        for (OwnerReference owner : Nulls.list(claim.getMetadata().getOwnerReferences())) {
            if ("Pod".equals(owner.getKind()) && Boolean.TRUE.equals(owner.getController())) {
                return !live(owner.getName(), owner.getUid(), pods);
            }
        }
        return false;
    }

    private static boolean hasFinalizer(ResourceClaim claim) {
        return Nulls.list(claim.getMetadata().getFinalizers()).contains(ClaimAllocation.FINALIZER);
    }

    /** The controller's decision for one claim. */
    public sealed interface Outcome {
        /** Nothing to write. */
        record Unchanged() implements Outcome {
        }

        /** Write this claim (reservedFor pruned; allocation and finalizer cleared when no consumer is left). */
        record Updated(ResourceClaim claim) implements Outcome {
        }

        /** The claim goes away (a pod's own claim whose pod ended, or a deleting claim now unfinalized). */
        record Deleted(ResourceClaim claim) implements Outcome {
        }
    }
}
