package io.vgpu.gateway.core.dra;

import java.util.List;
import java.util.Optional;

/**
 * The DRA fields a pod already has, which {@link io.vgpu.gateway.core.PodSpec} does not model: the JSON Patch must
 * append to existing lists instead of replacing them (a pod may carry claims of its own).
 *
 * @param podClaimNames  names in {@code spec.resourceClaims}, empty when the field is absent
 * @param initHasClaims  per init container, whether {@code resources.claims} is present
 * @param appHasClaims   per container, whether {@code resources.claims} is present
 */
public record ExistingClaims(Optional<List<String>> podClaimNames, List<Boolean> initHasClaims,
                             List<Boolean> appHasClaims) {

    /** Copies the lists. */
    public ExistingClaims {
        podClaimNames = podClaimNames.map(List::copyOf);
        initHasClaims = List.copyOf(initHasClaims);
        appHasClaims = List.copyOf(appHasClaims);
    }

    /** A pod with no DRA fields, of this many init and app containers. */
    public static ExistingClaims none(int initContainers, int containers) {
        return new ExistingClaims(Optional.empty(), java.util.Collections.nCopies(initContainers, false),
                java.util.Collections.nCopies(containers, false));
    }

    boolean hasClaims(boolean init, int index) {
        List<Boolean> list = init ? initHasClaims : appHasClaims;
        return index < list.size() && list.get(index);
    }
}
