package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DynamicResources plugin's PreFilter for one pod, plus Filter's check of allocated claims (spec §3.2):
 * find the pod's claims ({@code resourceClaimName}, or the claim the controller made from a template, named
 * in {@code status.resourceClaimStatuses}); a missing or deleting claim, an allocated claim that is full
 * or not usable on the node, a claim in flight for another pod or a missing device class makes the pod
 * unschedulable here. Returns the claims still to allocate, with the extended-resource claim.
 */
final class PodClaims {

    private PodClaims() {
    }

    static Optional<ToAllocate> resolve(Pod pod, Node node, Map<String, ResourceClaim> claims,
                                        Map<String, DeviceClass> classes, Map<String, String> inFlightElsewhere) {
        String ns = pod.getMetadata().getNamespace();
        List<ResourceClaim> toAllocate = new ArrayList<>();
        for (PodResourceClaim entry : Nulls.list(pod.getSpec().getResourceClaims())) {
            String name = claimName(pod, entry);
            if (name == null) {
                continue;
            }
            String key = DraAllocator.key(ns, name);
            ResourceClaim claim = claims.get(key);
            if (claim == null) {
                throw new NotSchedulable("resourceclaim " + key + " not found");
            }
            if (claim.getMetadata().getDeletionTimestamp() != null) {
                throw new NotSchedulable("resourceclaim " + key + " is being deleted");
            }
            if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
                checkAllocated(pod, node, key, claim);
                continue;
            }
            if (inFlightElsewhere.containsKey(key)) {
                throw new NotSchedulable("resourceclaim " + key + " is in the process of being allocated");
            }
            checkClasses(key, claim, classes);
            toAllocate.add(claim);
        }
        Optional<ExtendedResources.ExtendedClaim> extended = Optional.empty();
        if (pod.getStatus() == null || pod.getStatus().getExtendedResourceClaimStatus() == null) {
            extended = ExtendedResources.claimFor(pod, node, classes.values());
            extended.ifPresent(e -> toAllocate.add(e.claim()));
        }
        return toAllocate.isEmpty() ? Optional.empty() : Optional.of(new ToAllocate(toAllocate, extended));
    }

    private static String claimName(Pod pod, PodResourceClaim entry) {
        if (entry.getResourceClaimName() != null) {
            return entry.getResourceClaimName();
        }
        List<PodResourceClaimStatus> statuses = pod.getStatus() == null ? List.of()
                : Nulls.list(pod.getStatus().getResourceClaimStatuses());
        for (PodResourceClaimStatus status : statuses) {
            if (entry.getName().equals(status.getName())) {
                return status.getResourceClaimName();
            }
        }
        throw new NotSchedulable("pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                + ": waiting for the claim of entry " + entry.getName() + " to be created from its template");
    }

    private static void checkAllocated(Pod pod, Node node, String key, ResourceClaim claim) {
        var reserved = Nulls.list(claim.getStatus().getReservedFor());
        boolean reservedForPod = reserved.stream().anyMatch(r -> pod.getMetadata().getUid().equals(r.getUid()));
        if (!reservedForPod && reserved.size() >= DraAllocator.MAX_RESERVED_FOR) {
            throw new NotSchedulable("resourceclaim " + key + " in use");
        }
        var selector = claim.getStatus().getAllocation().getNodeSelector();
        if (selector != null && !NodeSelectors.matches(selector, node)) {
            throw new NotSchedulable("resourceclaim " + key + " not available on the node");
        }
    }

    private static void checkClasses(String key, ResourceClaim claim, Map<String, DeviceClass> classes) {
        for (DeviceRequest request : Nulls.list(claim.getSpec().getDevices().getRequests())) {
            List<String> names = new ArrayList<>();
            if (request.getExactly() != null) {
                names.add(request.getExactly().getDeviceClassName());
            }
            for (DeviceSubRequest sub : Nulls.list(request.getFirstAvailable())) {
                names.add(sub.getDeviceClassName());
            }
            for (String name : names) {
                if (name == null || !classes.containsKey(name)) {
                    throw new NotSchedulable("claim " + key + ", request " + request.getName() + ": device class "
                            + name + " does not exist");
                }
            }
        }
    }

    /** The claims to allocate, in order; the extended-resource claim, when there is one, is the last. */
    record ToAllocate(List<ResourceClaim> claims, Optional<ExtendedResources.ExtendedClaim> extended) {
        ToAllocate {
            claims = List.copyOf(claims);
        }
    }

    /** An expected "does not fit here" found before the search. */
    static final class NotSchedulable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotSchedulable(String message) {
            super(message, null, false, false);
        }
    }
}
