package io.vgpu.deviceplugin.dra.prepare;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the container rule needs of a pod that uses a claim (spec/dra-spec.md §1.5): which
 * ResourceClaim each of the pod's claim entries resolved to, and which claim requests each container
 * (init containers included) references.
 *
 * @param namespace     the pod's namespace (its claims live there)
 * @param name          the pod's name
 * @param uid           the pod's UID
 * @param claimNames    pod claim entry name → ResourceClaim name ({@code spec.resourceClaims[].resourceClaimName},
 *                      or {@code status.resourceClaimStatuses[]} for template entries)
 * @param containers    every container and what it references
 * @param extendedClaim the claim the scheduler made for extended resources
 *                      ({@code status.extendedResourceClaimStatus.resourceClaimName}), if any
 */
public record PodClaims(String namespace, String name, String uid, Map<String, String> claimNames,
                        List<Container> containers, Optional<String> extendedClaim) {

    /** Copies the collections. */
    public PodClaims {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
        claimNames = Map.copyOf(claimNames);
        containers = List.copyOf(containers);
        extendedClaim = extendedClaim == null ? Optional.empty() : extendedClaim;
    }

    /**
     * One container.
     *
     * @param name     the container's name
     * @param uses     its {@code resources.claims[]} entries
     * @param extended the requests of {@link #extendedClaim} mapped to it
     *                 ({@code status.extendedResourceClaimStatus.requestMappings})
     */
    public record Container(String name, List<Use> uses, List<String> extended) {
        /** Copies the lists. */
        public Container {
            Objects.requireNonNull(name, "name");
            uses = List.copyOf(uses);
            extended = List.copyOf(extended);
        }
    }

    /**
     * One {@code resources.claims[]} entry.
     *
     * @param claim   the pod claim entry name
     * @param request the request it selects; empty = every request of the claim
     */
    public record Use(String claim, String request) {
        /** Null request means all. */
        public Use {
            Objects.requireNonNull(claim, "claim");
            request = Objects.requireNonNullElse(request, "");
        }
    }
}
