package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.mig.RealizedMig;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.core.port.MigPartitioner;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.model.MigAllocation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The dynamic-MIG part of {@code Allocate} (spec §5.2), after the planner consumed the containers'
 * entries:
 *
 * <pre>
 *  reservations of the served containers ─ missing/unreadable ──────────────► fail(pod)
 *        │
 *  realize them (all or none, exact placements) ─ failed ──────────────────► fail(pod)
 *        │
 *  answer = MIG UUIDs; write to-allocate + vgpu-mig-allocations with the runtime identity,
 *  guarded by the pod's resourceVersion (re-read and retried on a conflict)
 *        ├─ write fails ─► destroy the instances this call created ─────────► fail(pod)
 *        └─ ok ─► trySucceed(pod) ─► Allocated
 * </pre>
 *
 * Never fails its stage. Runs inside {@link AllocationService}'s one-at-a-time queue.
 */
final class MigAllocateStep {

    /** Write attempts when the pod keeps changing under the guarded patch. */
    static final int WRITE_ATTEMPTS = 3;

    private final ClusterAccess cluster;
    private final AllocatePlanner planner;
    private final MigPartitioner mig;
    private final AllocationFinisher finisher;

    MigAllocateStep(ClusterAccess cluster, AllocatePlanner planner, MigPartitioner mig, AllocationFinisher finisher) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.planner = Objects.requireNonNull(planner, "planner");
        this.mig = Objects.requireNonNull(mig, "mig");
        this.finisher = Objects.requireNonNull(finisher, "finisher");
    }

    CompletionStage<AllocateResult> serve(PodView pod, AllocatePlan.Serve serve) {
        PodRef ref = PodRef.of(pod);
        Outcome<List<MigAllocation>> all = MigReservations.of(pod);
        if (!all.isOk()) {
            return reject(ref, all.error());
        }
        Map<Integer, List<MigAllocation>> perRequest = new TreeMap<>();
        List<MigKey> keys = new ArrayList<>();
        for (Map.Entry<Integer, ContainerTake> take : new TreeMap<>(serve.takes()).entrySet()) {
            Outcome<List<MigAllocation>> mine = MigReservations.forContainer(all.value(), take.getValue());
            if (!mine.isOk()) {
                return reject(ref, mine.error());
            }
            perRequest.put(take.getKey(), mine.value());
            mine.value().forEach(a -> keys.add(MigKey.of(a)));
        }
        return Stages.fold(Stages.call(() -> mig.realize(keys)),
                realized -> realized.isOk() ? record(pod, serve, perRequest, realized.value())
                        : reject(ref, realized.error()),
                error -> reject(ref, error));
    }

    private CompletionStage<AllocateResult> record(PodView pod, AllocatePlan.Serve serve,
                                                   Map<Integer, List<MigAllocation>> perRequest, List<RealizedMig> realized) {
        Map<List<Integer>, RealizedMig> byDevice = new LinkedHashMap<>();
        List<ContainerResponse> responses = new ArrayList<>(serve.responses());
        int next = 0;
        for (Map.Entry<Integer, List<MigAllocation>> request : perRequest.entrySet()) {
            List<String> uuids = new ArrayList<>();
            for (MigAllocation a : request.getValue()) {
                RealizedMig r = realized.get(next++);
                byDevice.put(List.of(a.containerIndex(), a.deviceIndex()), r);
                uuids.add(r.migUuid());
            }
            responses.set(request.getKey(), planner.migResponse(uuids));
        }
        PodRef ref = PodRef.of(pod);
        return Stages.fold(write(pod, serve.remainingAnnotation(), byDevice, 1),
                ok -> finisher.trySucceed(ref).thenApply(finish -> new AllocateResult.Allocated(ref, responses, finish)),
                error -> mig.release(realized).handle((v, e) -> null)
                        .thenCompose(v -> reject(ref, "cannot record the MIG instances on the pod: " + error)));
    }

    /** The guarded write; on a failure the pod is read again and the write retried with its version. */
    private CompletionStage<Void> write(PodView pod, String remaining, Map<List<Integer>, RealizedMig> byDevice, int attempt) {
        Outcome<List<MigAllocation>> current = MigReservations.of(pod);
        if (!current.isOk()) {
            return CompletableFuture.failedFuture(new IllegalStateException(current.error()));
        }
        Map<String, String> patch = new LinkedHashMap<>();
        patch.put(HamiAnnotations.DEVICES_TO_ALLOCATE, remaining);
        patch.put(HamiAnnotations.MIG_ALLOCATIONS, MigAllocationsCodec.encode(MigReservations.record(current.value(), byDevice)));
        CompletionStage<Void> patched = Stages.call(() -> pod.resourceVersion().isEmpty()
                ? cluster.patchPodAnnotations(pod.namespace(), pod.name(), patch)
                : cluster.patchPodAnnotations(pod.namespace(), pod.name(), patch, pod.resourceVersion()));
        if (attempt >= WRITE_ATTEMPTS) {
            return patched;
        }
        return Stages.fold(patched, CompletableFuture::completedFuture,
                error -> Stages.call(() -> cluster.pod(pod.namespace(), pod.name())).thenCompose(fresh -> fresh.isEmpty()
                        ? CompletableFuture.failedFuture(new IllegalStateException(error))
                        : write(fresh.get(), remaining, byDevice, attempt + 1)));
    }

    private CompletionStage<AllocateResult> reject(PodRef pod, String message) {
        return finisher.fail(pod).thenApply(finish -> new AllocateResult.Rejected(pod, message, finish));
    }
}
