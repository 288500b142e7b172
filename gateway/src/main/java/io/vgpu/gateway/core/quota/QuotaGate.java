package io.vgpu.gateway.core.quota;

import io.vgpu.state.model.ContainerDevice;

import java.util.ArrayList;
import java.util.List;

/**
 * Fit's quota check (spec §9.4 step 10): would a pod whose allocation so far is {@code containers}
 * (init containers first, the candidate already appended to the current container) still fit its
 * namespace's quota? Implementations collapse the allocation (spec §8.2) and apply
 * {@link io.vgpu.state.model.QuotaRule}. Must be thread-safe and must not block.
 */
@FunctionalInterface
public interface QuotaGate {

    /** A gate that admits everything (no quota configured). */
    QuotaGate NONE = (namespace, containers, initCount) -> true;

    /**
     * @param namespace  the pod's namespace
     * @param containers the pod's allocation so far, one list per container, init containers first
     * @param initCount  number of init containers at the head of {@code containers}
     * @return true when the collapsed total fits every enforced limit of the namespace
     */
    boolean admits(String namespace, List<List<ContainerDevice>> containers, int initCount);

    /**
     * Whether this gate may refuse anything in {@code namespace} right now; when false, callers may skip the
     * per-device checks of one decision (Fit asks once per candidate device of every node). The default is the
     * safe answer.
     */
    default boolean enforces(String namespace) {
        return true;
    }

    /**
     * Fit's check for one candidate device (HAMi {@code fitQuota}): the pod's containers allocated so
     * far, then the current container's picks with the candidate appended as the next container,
     * collapsed and checked as a whole.
     *
     * @param namespace the pod's namespace
     * @param allocated allocation of the earlier containers, one list per container, init first
     * @param current   devices already picked for the container being fitted
     * @param candidate the device being considered, with the MiB/cores it would be granted
     * @param initCount number of init containers in the pod
     * @return true when the hypothetical allocation fits the namespace quota
     */
    default boolean admitsCandidate(String namespace, List<List<ContainerDevice>> allocated,
                                    List<ContainerDevice> current, ContainerDevice candidate, int initCount) {
        List<ContainerDevice> next = new ArrayList<>(current);
        next.add(candidate);
        List<List<ContainerDevice>> hypothetical = new ArrayList<>(allocated);
        hypothetical.add(next);
        return admits(namespace, hypothetical, initCount);
    }
}
