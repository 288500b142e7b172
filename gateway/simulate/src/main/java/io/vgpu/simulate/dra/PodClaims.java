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
 * unschedulable here ({@link Resolution.NotHere}); otherwise the claims still to allocate, with the
 * extended-resource claim ({@link Resolution.ToAllocate}, possibly empty).
 */
final class PodClaims {

    private PodClaims() {
    }

    static Resolution resolve(Pod pod, Node node, Map<String, ResourceClaim> claims,
                              Map<String, DeviceClass> classes, Map<String, String> inFlightElsewhere) {
        String ns = pod.getMetadata().getNamespace();
        List<ResourceClaim> toAllocate = new ArrayList<>();
        for (PodResourceClaim entry : Nulls.list(pod.getSpec().getResourceClaims())) {
            Optional<String> name = claimName(pod, entry);
            if (name == null) {
                return new Resolution.NotHere("pod " + ns + "/" + pod.getMetadata().getName()
                        + ": waiting for the claim of entry " + entry.getName() + " to be created from its template");
            }
            if (name.isEmpty()) {
                continue;
            }
            String key = DraAllocator.key(ns, name.get());
            ResourceClaim claim = claims.get(key);
            String refusal = refusal(pod, node, key, claim, classes, inFlightElsewhere);
            if (refusal != null) {
                return new Resolution.NotHere(refusal);
            }
            if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
                toAllocate.add(claim);
            }
        }
        Optional<ExtendedResources.ExtendedClaim> extended = Optional.empty();
        if (pod.getStatus() == null || pod.getStatus().getExtendedResourceClaimStatus() == null) {
            extended = ExtendedResources.claimFor(pod, node, classes.values());
            extended.ifPresent(e -> toAllocate.add(e.claim()));
        }
        return new Resolution.ToAllocate(toAllocate, extended);
    }

    /** Why the pod cannot use {@code claim} (null when it can): kube-scheduler's words where it has them. */
    private static String refusal(Pod pod, Node node, String key, ResourceClaim claim, Map<String, DeviceClass> classes,
                                  Map<String, String> inFlightElsewhere) {
        if (claim == null) {
            return "resourceclaim " + key + " not found";
        }
        if (claim.getMetadata().getDeletionTimestamp() != null) {
            return "resourceclaim " + key + " is being deleted";
        }
        if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
            return allocatedRefusal(pod, node, key, claim);
        }
        if (inFlightElsewhere.containsKey(key)) {
            return "resourceclaim " + key + " is in the process of being allocated";
        }
        return missingClass(key, claim, classes);
    }

    /** The claim's name, empty when the pod needs none for this entry, null while the controller has not made it. */
    private static Optional<String> claimName(Pod pod, PodResourceClaim entry) {
        if (entry.getResourceClaimName() != null) {
            return Optional.of(entry.getResourceClaimName());
        }
        List<PodResourceClaimStatus> statuses = pod.getStatus() == null ? List.of()
                : Nulls.list(pod.getStatus().getResourceClaimStatuses());
        for (PodResourceClaimStatus status : statuses) {
            if (entry.getName().equals(status.getName())) {
                return Optional.ofNullable(status.getResourceClaimName());
            }
        }
        return null;
    }

    private static String allocatedRefusal(Pod pod, Node node, String key, ResourceClaim claim) {
        var reserved = Nulls.list(claim.getStatus().getReservedFor());
        boolean reservedForPod = reserved.stream().anyMatch(r -> pod.getMetadata().getUid().equals(r.getUid()));
        if (!reservedForPod && reserved.size() >= DraAllocator.MAX_RESERVED_FOR) {
            return "resourceclaim " + key + " in use";
        }
        var selector = claim.getStatus().getAllocation().getNodeSelector();
        if (selector != null && !NodeSelectors.matches(selector, node)) {
            return "resourceclaim " + key + " not available on the node";
        }
        return null;
    }

    private static String missingClass(String key, ResourceClaim claim, Map<String, DeviceClass> classes) {
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
                    return "claim " + key + ", request " + request.getName() + ": device class " + name + " does not exist";
                }
            }
        }
        return null;
    }

    /** PreFilter's answer for one pod and node. */
    sealed interface Resolution {
        /** The pod cannot use the node now, for this reason. */
        record NotHere(String reason) implements Resolution {
        }

        /** The claims to allocate, in order (possibly none); the extended-resource claim, if any, is the last. */
        record ToAllocate(List<ResourceClaim> claims, Optional<ExtendedResources.ExtendedClaim> extended)
                implements Resolution {
            public ToAllocate {
                claims = List.copyOf(claims);
            }
        }
    }
}
