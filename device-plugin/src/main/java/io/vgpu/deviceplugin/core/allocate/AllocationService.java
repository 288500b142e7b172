package io.vgpu.deviceplugin.core.allocate;
import io.vgpu.deviceplugin.core.advertise.DeviceInventory;
import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.pending.NodeLockReleaser;
import io.vgpu.deviceplugin.core.pending.PendingPodFinder;
import io.vgpu.deviceplugin.core.pending.PodLookup;
import io.vgpu.deviceplugin.core.pending.PodRef;
import io.vgpu.deviceplugin.core.outcome.Outcome;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.cluster.PodView;

import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.deviceplugin.core.port.HostFiles;
import io.vgpu.deviceplugin.core.port.MigPartitioner;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ContainerDevice;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The device plugin's {@code Allocate} and {@code GetPreferredAllocation} (spec §1.6, §2):
 *
 * <pre>
 *  find pending pod ─ missing ──────────────────────► Rejected (no pod touched; a dangling lock is released)
 *       │
 *  inspect hook files ─► plan ─ Refuse ─► prepare dirs ─► fail(pod) ─► Rejected
 *                             └ Serve ──► prepare dirs ─ error ──────► fail(pod) ─► Rejected
 *                                              │
 *                          patch to-allocate = remaining ─ error ───► fail(pod) ─► Rejected
 *                                              │
 *                                  trySucceed(pod) ─► Allocated
 * </pre>
 *
 * <p>In dynamic-MIG mode the served containers get MIG instances instead ({@link MigAllocateStep}).
 *
 * <p>Allocations run one at a time (HAMi holds a process-wide mutex): the pending-pod protocol is
 * node-global. Stages never fail: unexpected errors become {@link AllocateResult.Rejected}.
 * Thread-safe.
 */
public final class AllocationService {

    private final String node;
    private final ClusterAccess cluster;
    private final HostFiles host;
    private final AllocatePlanner planner;
    private final Supplier<DeviceInventory> inventory;
    private final PendingPodFinder finder;
    private final AllocationFinisher finisher;
    private final NodeLockReleaser releaser;
    private final MigAllocateStep mig;
    private final boolean hamiPods;
    private final Object queueLock = new Object();
    private CompletionStage<?> queueTail = CompletableFuture.completedFuture(null);

    /**
     * @param node      this node's name
     * @param inventory the devices currently served (read once per call)
     */
    public AllocationService(String node, ClusterAccess cluster, HostFiles host, AllocatePlanner planner,
                             Supplier<DeviceInventory> inventory, NodeLockReleaser releaser) {
        this(node, cluster, host, planner, inventory, releaser, null);
    }

    /**
     * @param node      this node's name
     * @param inventory the devices currently served (read once per call)
     * @param mig       the MIG hardware in dynamic-MIG mode (the served containers get MIG instances
     *                  instead of HAMi-core); null in every other mode
     */
    public AllocationService(String node, ClusterAccess cluster, HostFiles host, AllocatePlanner planner,
                             Supplier<DeviceInventory> inventory, NodeLockReleaser releaser, MigPartitioner mig) {
        this.node = Objects.requireNonNull(node, "node");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.host = Objects.requireNonNull(host, "host");
        this.planner = Objects.requireNonNull(planner, "planner");
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        this.finder = new PendingPodFinder(cluster);
        this.finisher = new AllocationFinisher(cluster, releaser, node);
        this.releaser = releaser;
        this.mig = mig == null ? null : new MigAllocateStep(cluster, planner, mig, finisher);
        this.hamiPods = true;
    }

    private AllocationService(String node, ClusterAccess cluster, HostFiles host, AllocatePlanner planner,
                              Supplier<DeviceInventory> inventory, NodeLockReleaser releaser, boolean hamiPods) {
        this.node = Objects.requireNonNull(node, "node");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.host = Objects.requireNonNull(host, "host");
        this.planner = Objects.requireNonNull(planner, "planner");
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        this.finder = new PendingPodFinder(cluster);
        this.finisher = new AllocationFinisher(cluster, releaser, node);
        this.releaser = releaser;
        this.mig = null;
        this.hamiPods = hamiPods;
    }

    /**
     * The service of a resource HAMi does not schedule ({@code nvidia.com/mig-<profile>} of the
     * {@code mixed} static MIG strategy): every request is answered through the pass-through branch,
     * no pod is looked up or written, preferred allocation steers nothing.
     */
    public static AllocationService passThroughOnly(String node, ClusterAccess cluster, HostFiles host, AllocatePlanner planner,
                                                    Supplier<DeviceInventory> inventory, NodeLockReleaser releaser) {
        return new AllocationService(node, cluster, host, planner, inventory, releaser, false);
    }

    /**
     * Serves one {@code Allocate}.
     *
     * @param requests kubelet's device IDs, one list per container request
     */
    public CompletionStage<AllocateResult> allocate(List<List<String>> requests) {
        List<List<String>> copy = requests.stream().map(List::copyOf).toList();
        synchronized (queueLock) {
            CompletionStage<AllocateResult> mine = queueTail
                    .handle((ignored, error) -> null)
                    .thenCompose(ignored -> allocateNow(copy))
                    .exceptionally(e -> new AllocateResult.Rejected(null, "internal error: " + Stages.message(e), null));
            queueTail = mine;
            return mine;
        }
    }

    /**
     * Serves one {@code GetPreferredAllocation}: steers kubelet towards the annotated GPUs; any lookup
     * or decode problem just means no steering. Never fails.
     */
    public CompletionStage<List<List<String>>> preferred(List<PreferredRequest> requests) {
        if (!hamiPods) {
            return CompletableFuture.completedFuture(List.of());
        }
        return finder.find(node).thenApply(lookup -> {
            Outcome<List<List<ContainerDevice>>> annotated = lookup instanceof PodLookup.Found found
                    ? AllocationEntries.decode(found.pod().annotations())
                    : Outcome.failed(((PodLookup.Missing) lookup).message());
            return PreferredAllocation.answer(annotated, requests);
        });
    }

    private CompletionStage<AllocateResult> allocateNow(List<List<String>> requests) {
        if (!hamiPods) {
            return CompletableFuture.completedFuture(withoutPod(requests));
        }
        return finder.find(node).thenCompose(lookup -> {
            if (lookup instanceof PodLookup.Missing missing) {
                // static MIG devices that kube-scheduler placed without HAMi: answered as they are
                return AllocatePlanner.onlyMigDevices(requests) && missing.danglingOwner() == null
                        ? CompletableFuture.completedFuture(withoutPod(requests)) : noPod(missing);
            }
            PodView pod = ((PodLookup.Found) lookup).pod();
            return Stages.fold(Stages.call(() -> host.inspect(planner.settings().hookPaths())),
                    files -> execute(pod, planner.plan(pod, requests, files, inventory.get())),
                    error -> execute(pod, planner.plan(pod, requests, HookFiles.none(), inventory.get())));
        });
    }

    private AllocateResult withoutPod(List<List<String>> requests) {
        Outcome<List<ContainerResponse>> answers = planner.passThroughAll(requests, inventory.get());
        return answers.isOk() ? new AllocateResult.Allocated(null, answers.value(), null)
                : new AllocateResult.Rejected(null, answers.error(), null);
    }

    /**
     * No pod to charge: the call fails and nothing is written to any pod. A lock naming a pod that no
     * longer exists can never be finished by anyone else, so it is released (owner-checked against
     * that gone pod) instead of blocking the node until the scheduler's expiry.
     */
    private CompletionStage<AllocateResult> noPod(PodLookup.Missing missing) {
        if (missing.danglingOwner() == null) {
            return CompletableFuture.completedFuture(new AllocateResult.Rejected(null, missing.message(), null));
        }
        return releaser.release(node, missing.danglingOwner()).thenApply(lock ->
                new AllocateResult.Rejected(null, missing.message(), new FinishReport("", "", lock)));
    }

    private CompletionStage<AllocateResult> execute(PodView pod, AllocatePlan plan) {
        PodRef ref = PodRef.of(pod);
        if (plan instanceof AllocatePlan.Refuse refuse) {
            return Stages.fold(prepare(refuse.containerDirs()),
                    ok -> reject(ref, refuse.message()),
                    ignoredError -> reject(ref, refuse.message()));
        }
        AllocatePlan.Serve serve = (AllocatePlan.Serve) plan;
        if (mig != null && !serve.takes().isEmpty()) {
            return mig.serve(pod, serve);
        }
        return Stages.fold(prepare(serve.containerDirs()),
                ok -> writeBack(ref, serve),
                error -> reject(ref, "cannot prepare the HAMi-core cache directories: " + error));
    }

    private CompletionStage<AllocateResult> writeBack(PodRef pod, AllocatePlan.Serve serve) {
        return Stages.fold(
                Stages.call(() -> cluster.patchPodAnnotations(pod.namespace(), pod.name(),
                        Map.of(HamiAnnotations.DEVICES_TO_ALLOCATE, serve.remainingAnnotation()))),
                ok -> finisher.trySucceed(pod).thenApply(finish -> new AllocateResult.Allocated(pod, serve.responses(), finish)),
                error -> reject(pod, error));
    }

    private CompletionStage<Void> prepare(List<String> dirs) {
        if (dirs.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return Stages.call(() -> host.prepare(dirs, HookPaths.LOCK_DIR));
    }

    private CompletionStage<AllocateResult> reject(PodRef pod, String message) {
        return finisher.fail(pod).thenApply(finish -> new AllocateResult.Rejected(pod, message, finish));
    }
}
