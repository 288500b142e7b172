package io.vgpu.deviceplugin.core.allocate;

import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.pending.PendingPodRules;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Ends a pod's allocation (HAMi {@code PodAllocationTrySuccess}, {@code PodAllocationSuccess},
 * {@code PodAllocationFailed}; spec §2.6):
 *
 * <pre>
 *  trySucceed: GET pod ─ to-allocate still holds a vendor word ─► nothing (more containers to come)
 *                      ─ GET fails ──────────────────────────────► nothing (the lock expires later)
 *                      └─ otherwise ─► succeed
 *  succeed:    patch bind-phase=success ─► release the node lock (owner-checked)
 *  fail:       patch bind-phase=failed ──► release the node lock, even when the patch failed
 * </pre>
 *
 * Never fails its stage; patch errors are reported, not thrown. Idempotent. Thread-safe.
 */
public final class AllocationFinisher {

    /**
     * The vendor words HAMi's {@code DevicesToHandle} holds with the chart's device config: any of them
     * left in the refreshed to-allocate value means another container of the pod is still pending.
     */
    public static final List<String> VENDOR_WORDS = List.of("NVIDIA", "MLU", "DCU", "Enflame", "Mthreads",
            "Metax-GPU", "Metax-sGPU", "kunlun", "XPU", "AWSNeuron", "AMD", "Vastai", "Biren", "Ascend", "Iluvatar");

    private final ClusterAccess cluster;
    private final NodeLockReleaser releaser;
    private final String node;

    /** A finisher for pods of {@code node}, releasing through {@code releaser}. */
    public AllocationFinisher(ClusterAccess cluster, NodeLockReleaser releaser, String node) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.releaser = Objects.requireNonNull(releaser, "releaser");
        this.node = Objects.requireNonNull(node, "node");
    }

    /** Marks success and releases the lock when no container of {@code pod} is left to allocate. */
    public CompletionStage<FinishReport> trySucceed(PodRef pod) {
        return Stages.fold(Stages.call(() -> cluster.pod(pod.namespace(), pod.name())),
                refreshed -> refreshed.isPresent() && complete(refreshed.get().annotation(HamiAnnotations.DEVICES_TO_ALLOCATE))
                        ? succeed(pod) : CompletableFuture.completedFuture(FinishReport.pending()),
                error -> CompletableFuture.completedFuture(FinishReport.pending()));
    }

    /** True when the to-allocate value holds no vendor word any more. */
    public static boolean complete(String toAllocate) {
        return PodDevicesCodec.allocationComplete(toAllocate, VENDOR_WORDS);
    }

    /** {@code hami.io/bind-phase=success}, then the owner-checked lock release. */
    public CompletionStage<FinishReport> succeed(PodRef pod) {
        return finish(pod, PendingPodRules.PHASE_SUCCESS);
    }

    /** {@code hami.io/bind-phase=failed}, then the owner-checked lock release (attempted whatever the patch did). */
    public CompletionStage<FinishReport> fail(PodRef pod) {
        return finish(pod, PendingPodRules.PHASE_FAILED);
    }

    private CompletionStage<FinishReport> finish(PodRef pod, String phase) {
        CompletionStage<String> patched = Stages.fold(
                Stages.call(() -> cluster.patchPodAnnotations(pod.namespace(), pod.name(), Map.of(HamiAnnotations.BIND_PHASE, phase))),
                ok -> CompletableFuture.completedFuture(""),
                CompletableFuture::completedFuture);
        return patched.thenCompose(patchError -> releaser.release(node, pod)
                .thenApply(lock -> new FinishReport(phase, patchError, lock)));
    }
}
