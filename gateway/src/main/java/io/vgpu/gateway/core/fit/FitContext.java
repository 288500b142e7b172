package io.vgpu.gateway.core.fit;

import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.Map;
import java.util.Set;

/**
 * Everything NVIDIA Fit needs besides the devices and the request: the pod's parsed selectors and GPU
 * policy, its namespace and quota gate, and the node's cordoned UUIDs and pair scores. Build the pod part
 * once per scheduling call ({@link #forPod}) and derive one context per node ({@link #onNode}). Immutable.
 *
 * @param filters      the pod's selector annotations
 * @param namespace    the pod's namespace (for the quota check)
 * @param gpuPolicy    the resolved GPU policy (pod annotation {@code hami.io/gpu-scheduler-policy}, else the
 *                     configured default), possibly a comma chain
 * @param needTopology whether the policy list names {@code topology-aware}
 * @param mutex        whether the policy list names {@code mutex}
 * @param quota        the namespace quota check ({@link QuotaGate#NONE} when quotas are not enforced)
 * @param cordoned     UUIDs of the node's {@code hami.io/device-cordon} annotation
 * @param pairScores   the node's pairwise link scores
 */
public record FitContext(AnnotationFilters filters, String namespace, String gpuPolicy, boolean needTopology,
                         boolean mutex, QuotaGate quota, Set<String> cordoned, PairScores pairScores) {

    /** GPU policy word: pick the best-connected cards ({@link #needTopology}). */
    public static final String TOPOLOGY_AWARE = "topology-aware";
    /** GPU policy word: only idle cards. */
    public static final String MUTEX = "mutex";

    /** Null-safe normalisation. */
    public FitContext {
        filters = filters == null ? AnnotationFilters.NONE : filters;
        namespace = namespace == null ? "" : namespace;
        gpuPolicy = gpuPolicy == null ? "" : gpuPolicy;
        quota = quota == null ? QuotaGate.NONE : quota;
        cordoned = cordoned == null ? Set.of() : Set.copyOf(cordoned);
        pairScores = pairScores == null ? PairScores.NONE : pairScores;
    }

    /**
     * The pod part of the context, with no node information yet.
     *
     * @param podAnnotations the pod's annotations
     * @param namespace      the pod's namespace
     * @param gpuPolicy      the resolved GPU policy ({@link #resolveGpuPolicy})
     * @param quota          the quota gate
     */
    public static FitContext forPod(Map<String, String> podAnnotations, String namespace, String gpuPolicy,
                                    QuotaGate quota) {
        String policy = gpuPolicy == null ? "" : gpuPolicy;
        return new FitContext(AnnotationFilters.of(podAnnotations), namespace, policy,
                policyContains(policy, TOPOLOGY_AWARE), policyContains(policy, MUTEX), quota, Set.of(),
                PairScores.NONE);
    }

    /** This pod context on a node with the given annotations (cordon) and pair scores. */
    public FitContext onNode(Map<String, String> nodeAnnotations, PairScores nodePairScores) {
        String cordon = nodeAnnotations == null ? null : nodeAnnotations.get(HamiAnnotations.DEVICE_CORDON);
        return new FitContext(filters, namespace, gpuPolicy, needTopology, mutex, quota,
                AnnotationFilters.cordonedUuids(cordon), nodePairScores);
    }

    /**
     * The GPU policy of a pod: its {@code hami.io/gpu-scheduler-policy} annotation when present (even
     * empty), else the configured default.
     */
    public static String resolveGpuPolicy(Map<String, String> podAnnotations, String configuredDefault) {
        String value = podAnnotations == null ? null : podAnnotations.get(HamiAnnotations.GPU_SCHEDULER_POLICY);
        return value != null ? value : configuredDefault == null ? "" : configuredDefault;
    }

    /**
     * HAMi's {@code PolicyContains}: whether the comma-separated policy list names {@code name} (each
     * item trimmed, exact match).
     */
    public static boolean policyContains(String policy, String name) {
        for (String item : policy.split(",", -1)) {
            if (GoText.trimSpace(item).equals(name)) {
                return true;
            }
        }
        return false;
    }
}
