package io.vgpu.deviceplugin.core.pending;
import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.deviceplugin.core.port.ClusterAccess;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Finds the pod kubelet is allocating for on this node ({@link PendingPodRules}), with live reads of
 * the node and the pod. Never fails its stage: every problem is a {@link PodLookup.Missing}; when the
 * node lock names a pod that no longer exists, the miss carries that owner so the caller can release
 * the dangling lock.
 * Thread-safe.
 */
public final class PendingPodFinder {

    private final ClusterAccess cluster;

    /** A finder reading through {@code cluster}. */
    public PendingPodFinder(ClusterAccess cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    /** The pending pod of {@code node}. */
    public CompletionStage<PodLookup> find(String node) {
        return Stages.fold(Stages.call(() -> cluster.node(node)),
                found -> found.map(n -> byLock(node, PendingPodRules.fromNode(n.annotations())))
                        .orElseGet(() -> missing(PendingPodRules.nodeNotFound(node))),
                PendingPodFinder::missing);
    }

    private CompletionStage<PodLookup> byLock(String node, PendingPodRules.Lookup lookup) {
        if (lookup instanceof PendingPodRules.Lookup.Owner owner) {
            PodRef ref = owner.pod();
            return Stages.fold(Stages.call(() -> cluster.pod(ref.namespace(), ref.name())),
                    pod -> CompletableFuture.completedFuture(pod.<PodLookup>map(PodLookup.Found::new)
                            .orElseGet(() -> new PodLookup.Missing(PendingPodRules.podNotFound(ref.name()), ref))),
                    PendingPodFinder::missing);
        }
        if (lookup instanceof PendingPodRules.Lookup.Invalid invalid) {
            return missing(invalid.message());
        }
        return Stages.fold(Stages.call(() -> cluster.podsOnNode(node)),
                (List<PodView> pods) -> found(PendingPodRules.firstPending(pods, node), PendingPodRules.noBindingPod(node)),
                PendingPodFinder::missing);
    }

    private static CompletionStage<PodLookup> found(Optional<PodView> pod, String otherwise) {
        return CompletableFuture.completedFuture(
                pod.<PodLookup>map(PodLookup.Found::new).orElseGet(() -> new PodLookup.Missing(otherwise)));
    }

    private static CompletionStage<PodLookup> missing(String message) {
        return CompletableFuture.completedFuture(new PodLookup.Missing(message));
    }
}
