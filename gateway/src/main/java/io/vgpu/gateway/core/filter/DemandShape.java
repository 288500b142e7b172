package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.fit.AnnotationFilters;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.score.PodDemand;
import io.vgpu.state.model.ContainerRequest;

import java.util.List;

/**
 * Everything of a pod that {@link io.vgpu.gateway.core.score.NodeScorer} reads when the pod's quota gate is
 * {@link QuotaGate#NONE}: two pods with equal shapes get the same verdict on the same node view. It is the
 * {@link PodDemand} without what the scorer does not read in that case:
 * <ul>
 *   <li>the annotations: the scorer reads them only through {@link AnnotationFilters#of} (type, UUID and mode
 *       selectors, numa-bind), whose value equality stands in for them;</li>
 *   <li>the namespace and the quota gate: read only by Fit's quota check, which {@code NONE} skips.</li>
 * </ul>
 *
 * @param containers one NVIDIA request per container, init containers first
 * @param initCount  how many leading containers are init containers
 * @param gpuPolicy  the resolved GPU policy (device order, mutex, topology-aware)
 * @param numaBind   the numa-bind flag the device order uses
 * @param weights    the device score weights
 * @param filters    the pod's parsed selectors
 */
record DemandShape(List<ContainerRequest> containers, int initCount, String gpuPolicy, boolean numaBind,
                   ScoringWeights weights, AnnotationFilters filters) {

    /**
     * The shape of a demand whose quota gate is {@link QuotaGate#NONE}.
     *
     * @throws IllegalArgumentException for a demand with a quota gate: its verdicts depend on the namespace's usage
     */
    static DemandShape of(PodDemand demand) {
        if (demand.quota() != QuotaGate.NONE) {
            throw new IllegalArgumentException("a demand checked against a quota has no shape");
        }
        return new DemandShape(demand.containers(), demand.initCount(), demand.gpuPolicy(), demand.numaBind(),
                demand.weights(), AnnotationFilters.of(demand.annotations()));
    }
}
