package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.AnnotationFilters;
import io.vgpu.gateway.core.fit.FitContext;
import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.model.ContainerRequest;

import java.util.List;
import java.util.Map;

/**
 * What one pod asks of every candidate node, resolved once per scheduling call. Immutable.
 *
 * @param containers  one NVIDIA request per container, init containers first; a request with
 *                    {@code nums <= 0} means the container asks for no GPU
 * @param initCount   how many leading entries of {@code containers} are init containers
 * @param annotations the pod's annotations (selectors, numa-bind)
 * @param namespace   the pod's namespace (quota)
 * @param gpuPolicy   the resolved GPU policy ({@link FitContext#resolveGpuPolicy})
 * @param numaBind    the pod's numa-bind flag as the device order sees it
 * @param weights     the device score weights ({@link ScoringWeights#fromPod}, already validated)
 * @param quota       the namespace quota gate ({@link QuotaGate#NONE} when quotas are off)
 */
public record PodDemand(List<ContainerRequest> containers, int initCount, Map<String, String> annotations,
                        String namespace, String gpuPolicy, boolean numaBind, ScoringWeights weights,
                        QuotaGate quota) {

    /** Copies and validates. */
    public PodDemand {
        containers = List.copyOf(containers);
        if (initCount < 0 || initCount > containers.size()) {
            throw new IllegalArgumentException("initCount " + initCount + " outside 0.." + containers.size());
        }
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        namespace = namespace == null ? "" : namespace;
        gpuPolicy = gpuPolicy == null ? "" : gpuPolicy;
        weights = weights == null ? ScoringWeights.DEFAULT : weights;
        quota = quota == null ? QuotaGate.NONE : quota;
    }

    /**
     * The demand of a pod, with its GPU policy resolved from its annotation or the configured default and
     * its numa-bind flag read from {@code nvidia.com/numa-bind}.
     */
    public static PodDemand of(List<ContainerRequest> containers, int initCount, Map<String, String> annotations,
                               String namespace, String configuredGpuPolicy, ScoringWeights weights,
                               QuotaGate quota) {
        return new PodDemand(containers, initCount, annotations, namespace,
                FitContext.resolveGpuPolicy(annotations, configuredGpuPolicy),
                AnnotationFilters.of(annotations).numaBind(), weights, quota);
    }
}
