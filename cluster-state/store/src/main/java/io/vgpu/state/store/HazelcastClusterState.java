package io.vgpu.state.store;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.Partition;
import com.hazelcast.query.Predicates;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ClusterStateUnavailableException;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;
import io.vgpu.state.store.processor.ClearPodNodeProcessor;
import io.vgpu.state.store.processor.ConfirmLockProcessor;
import io.vgpu.state.store.processor.ConfirmProcessor;
import io.vgpu.state.store.processor.ExpireProcessor;
import io.vgpu.state.store.processor.ExpireQuotaProcessor;
import io.vgpu.state.store.processor.LockNodeProcessor;
import io.vgpu.state.store.processor.ObserveBoundProcessor;
import io.vgpu.state.store.processor.ObserveQuotaProcessor;
import io.vgpu.state.store.processor.RegisterNodeProcessor;
import io.vgpu.state.store.processor.ReleaseQuotaProcessor;
import io.vgpu.state.store.processor.ReleaseReservationProcessor;
import io.vgpu.state.store.processor.ReleaseSlicesProcessor;
import io.vgpu.state.store.processor.RemoveNodeProcessor;
import io.vgpu.state.store.processor.ReserveQuotaProcessor;
import io.vgpu.state.store.processor.ReserveSlicesProcessor;
import io.vgpu.state.store.processor.SetPodNodeProcessor;
import io.vgpu.state.store.processor.SetQuotaLimitsProcessor;
import io.vgpu.state.store.processor.UnlockNodeProcessor;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Level;

/**
 * {@link ClusterState} on an embedded Hazelcast member (DESIGN.md §3): {@code IMap<nodeName, NodeState>},
 * {@code IMap<namespace, QuotaState>} and the pod index {@code IMap<podUid, nodeName>}, partitioned with
 * synchronous backups. Every change is one entry processor submitted with {@code submitToKey}, so changes to one
 * node run one at a time on its partition owner (and again on its backups) while different nodes proceed in
 * parallel. Local reads come from listener-fed snapshots: the views ({@link #nodes}, {@link #node}) join the summary
 * map, where each node key's owner republishes the node's usage summary after every change, with the inventory map,
 * where it republishes the node's registration facts when they change ({@link SummaryPublisher}: O(GPUs) per change,
 * ordered by version; a new owner republishes what it took over; {@link NodeViews}); {@link #quota} from the quota
 * map. The full node values, with their pod charges, stay with each key's owner (and backup): {@link #nodeState} reads
 * them only for keys this member owns ({@link OwnedStates}, fed by the node map's local entry listener), and
 * {@link #readNode} asks the key's owner. No member receives another member's node values.
 *
 * <p>Threading: no method blocks except {@link #start} (member start-up and join: call it from the composition
 * root, not from an event loop). Returned stages complete on the callback executor given at start (default: a small
 * daemon pool owned by this object), except those of the decision calls {@link #reserve}, {@link #confirm},
 * {@link #confirmAndLock} and {@link #lockNode}: they complete on the thread that completed the Hazelcast call (one
 * hop fewer per decision: their callers take the result to their own event loop), so attach continuations to them
 * with an executor or a Vert.x context, never bare; the pod-index write that follows a placement runs afterwards on
 * the callback executor. The local views are complete once {@link #ready()} has completed.
 */
public final class HazelcastClusterState implements ClusterState {

    private static final ILogger LOG = Logger.getLogger(HazelcastClusterState.class);
    private static final long LOAD_RETRY_MILLIS = 250;
    /** The production view feed: each change event updates the local views at once, on Hazelcast's event thread. */
    private static final Executor DIRECT = Runnable::run;

    private final HazelcastInstance member;
    private final boolean ownsMember;
    private final IMap<String, NodeState> nodes;
    private final IMap<String, QuotaState> quotas;
    private final IMap<String, String> podIndex;
    private final IMap<String, NodeSummary> summaries;
    private final IMap<String, NodeFacts> inventory;
    private final KeyPartitions partitions;
    private final OwnedStates owned = new OwnedStates(this::ownsKey);
    /** The views: every node's summary joined with its facts (DESIGN.md §3 "What fans out is O(GPUs)"). */
    private final NodeViews views = new NodeViews();
    private final SummaryPublisher publisher;
    private final TakeOvers takeOvers;
    private final LocalSnapshot<QuotaState, QuotaState> quotaSnapshot = new LocalSnapshot<>(q -> null);
    private final ExecutorService ownedExecutor;
    private final Stages stages;
    private final UUID nodeListener;
    private final UUID quotaListener;
    private final UUID summaryListener;
    private final UUID inventoryListener;
    private final UUID publishListener;
    private final UUID takeOverListener;
    private final ResyncTrigger resync;
    private final UUID migrationListener;
    private final UUID nodeLossListener;
    private final UUID quotaLossListener;
    private final ScheduledExecutorService loader;
    private final UUID mergeListener;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();

    private HazelcastClusterState(HazelcastInstance member, boolean ownsMember, Executor callbacks,
                                  ExecutorService ownedExecutor, Executor viewFeed, Executor publications) {
        this.member = member;
        this.ownsMember = ownsMember;
        this.partitions = new KeyPartitions(member.getPartitionService());
        this.ownedExecutor = ownedExecutor;
        // before anything of ours is serialized on an event loop or a partition thread (CompactSchemas says why)
        CompactSchemas.replicate(member);
        this.stages = new Stages(callbacks);
        this.loader = daemonScheduler("vgpu-store-snapshot-loader");
        this.nodes = member.getMap(HazelcastMemberConfig.NODE_MAP);
        this.quotas = member.getMap(HazelcastMemberConfig.QUOTA_MAP);
        this.podIndex = member.getMap(HazelcastMemberConfig.POD_INDEX_MAP);
        this.summaries = member.getMap(HazelcastMemberConfig.SUMMARY_MAP);
        this.inventory = member.getMap(HazelcastMemberConfig.INVENTORY_MAP);
        this.publisher = new SummaryPublisher(summaries, inventory, publications);
        this.takeOvers = new TakeOvers(nodes, summaries, views::versions, this::ownsKey);
        // listeners first, then the initial load: nothing changed in between is lost
        this.publishListener = nodes.addLocalEntryListener(publisher, Predicates.alwaysTrue(), true);
        this.takeOverListener = nodes.addLocalEntryListener(takeOvers, Predicates.alwaysTrue(), true);
        this.summaryListener = summaries.addEntryListener(new SnapshotFeed<>(views.summaries(), viewFeed), true);
        this.inventoryListener = inventory.addEntryListener(new SnapshotFeed<>(views.facts(), viewFeed), true);
        this.nodeListener = nodes.addLocalEntryListener(new SnapshotFeed<>(owned.listener(), viewFeed),
                Predicates.alwaysTrue(), true);
        this.quotaListener = quotas.addEntryListener(new SnapshotFeed<>(quotaSnapshot, viewFeed), true);
        this.resync = new ResyncTrigger(member.getPartitionService(), this::ownsKey);
        // a new owner (migration, or a backup promoted after its owner died, or a lost partition) makes the versions
        // of the keys it took over jump past what the former owner may have published, and republishes their
        // summaries and facts: the former owner may have committed a change and died before publishing it
        resync.add(keys -> loader.execute(() -> republish(keys, false)));
        resync.afterMigrations(() -> loader.execute(() -> {
            owned.retainOwned();
            takeOvers.retainOwned();
        }));
        this.migrationListener = member.getPartitionService().addMigrationListener(resync);
        this.nodeLossListener = nodes.addPartitionLostListener(resync);
        this.quotaLossListener = quotas.addPartitionLostListener(resync);
        // a member that merges into another cluster gets no events for what that cluster changed while apart: its
        // views would stay stale (and /filter would score on them) until each key changed again
        this.mergeListener = member.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                LOG.info("merged into another cluster: reloading the local views");
                loader.execute(this::reloadSnapshots);
                // the merge kept one side's node values and maybe the other side's summaries, whose versions do
                // not compare: the owners republish theirs as resets
                loader.execute(() -> republish(key -> true, true));
            }
        });
        loader.execute(this::loadSnapshots);
    }

    private static ScheduledExecutorService daemonScheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** After a merge: reads both maps again; keys changed by events meanwhile keep the events' values. */
    private void reloadSnapshots() {
        owned.beginLoad();
        views.beginLoad();
        quotaSnapshot.beginLoad();
        loadSnapshots();
    }

    /**
     * Reads both maps once (after the listeners were registered) into the local snapshots; retried until it works,
     * since a replica that starts on the minority side of a quorum cannot read yet.
     */
    private void loadSnapshots() {
        try {
            Map<String, NodeFacts> allFacts = Map.copyOf(inventory);
            Map<String, NodeSummary> allSummaries = Map.copyOf(summaries);
            Map<String, NodeState> ownedNodes = nodes.getAll(nodes.localKeySet());
            Map<String, QuotaState> allQuotas = Map.copyOf(quotas);
            views.load(allSummaries, allFacts);
            owned.load(ownedNodes);
            quotaSnapshot.load(allQuotas);
            ready.complete(null);
        } catch (RuntimeException e) {
            if (!member.getLifecycleService().isRunning()) {
                ready.completeExceptionally(Stages.translate("load the state", e));
                return;
            }
            LOG.log(Level.FINE, "state not loaded yet, retrying: " + e.getMessage());
            if (!loader.isShutdown()) {
                loader.schedule(this::loadSnapshots, LOAD_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Takes over the node keys this member owns that {@code keys} matches ({@link TakeOvers}: their versions jump
     * past anything a former owner may have published), then publishes their summaries and facts and keeps those
     * values as owned ones (a new owner's catch-up; {@code reset} after a merge). Runs on the loader thread; a
     * failure is logged (the next change of a key publishes it again).
     */
    private void republish(Predicate<String> keys, boolean reset) {
        try {
            takeOvers.takeOver(keys).forEach(value -> {
                owned.offer(value);
                publisher.republish(value, reset);
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "republishing node summaries failed: " + e.getMessage());
        }
    }

    /**
     * Completes once the local views ({@link #nodes}, {@link #node}, {@link #nodeState}, {@link #quota}) hold the
     * whole shared state, i.e. after the first successful read of both maps (a replica on the minority side of a
     * quorum waits for the quorum). Gate {@code /readyz} on it.
     */
    public CompletionStage<Void> ready() {
        return ready.copy();
    }

    /**
     * Starts an embedded member with {@link HazelcastMemberConfig#build} and joins the cluster (blocking); the local
     * snapshot then loads in the background ({@link #ready()}). Callbacks run on a small daemon pool owned by the
     * returned object.
     */
    public static HazelcastClusterState start(StoreConfig config) {
        return start(config, DIRECT);
    }

    /**
     * {@link #start(StoreConfig)} with the change events for this replica's local views handed to {@code viewFeed}
     * (the composition root's seam for wrappers: the chaos harness's stale replica passes one that runs them late).
     *
     * @param viewFeed runs every change event of the node and quota maps against the local views; it must run them
     *                 in the order given (the events of one key stay in order), e.g. at once or on one thread
     */
    public static HazelcastClusterState start(StoreConfig config, Executor viewFeed) {
        return start(HazelcastMemberConfig.build(config), viewFeed);
    }

    /**
     * Like {@link #start(StoreConfig)} with a member configuration built by {@link HazelcastMemberConfig#build} and
     * then adjusted by the caller (e.g. another discovery mechanism, shorter join waits in tests). Blocking.
     */
    public static HazelcastClusterState start(Config memberConfig) {
        return start(memberConfig, DIRECT);
    }

    /** {@link #start(Config)} with a view feed, as {@link #start(StoreConfig, Executor)}. */
    public static HazelcastClusterState start(Config memberConfig, Executor viewFeed) {
        Objects.requireNonNull(viewFeed, "viewFeed");
        ExecutorService pool = callbackPool();
        HazelcastInstance member = null;
        try {
            member = Hazelcast.newHazelcastInstance(memberConfig);
            return new HazelcastClusterState(member, true, pool, pool, viewFeed, DIRECT);
        } catch (RuntimeException e) {
            if (member != null) {
                member.getLifecycleService().terminate();
            }
            pool.shutdown();
            throw e;
        }
    }

    /**
     * Uses a member started by the caller, whose configuration came from {@link HazelcastMemberConfig#build}
     * (serializers and maps); {@link #shutdown()} then leaves the member running. The local snapshot loads in the
     * background ({@link #ready()}).
     *
     * @param callbacks where returned stages complete (e.g. a worker pool); never the common ForkJoin pool on
     *                  small machines
     */
    public static HazelcastClusterState attach(HazelcastInstance member, Executor callbacks) {
        return attach(member, callbacks, DIRECT);
    }

    /**
     * {@link #attach(HazelcastInstance, Executor)} with this member's summary publications handed to
     * {@code publications} (tests: hold them back to stand for an owner that dies before it publishes).
     */
    static HazelcastClusterState attach(HazelcastInstance member, Executor callbacks, Executor publications) {
        return new HazelcastClusterState(member, false, callbacks, null, DIRECT, publications);
    }

    /** The embedded member (tests: find partition owners, terminate members). */
    public HazelcastInstance member() {
        return member;
    }

    /**
     * Leaves the cluster gracefully: stops listening, then (when this object started the member) shuts the member
     * down, which hands its partitions and their backups to the remaining members before it goes. Completes on
     * a thread of its own. Idempotent.
     */
    public CompletionStage<Void> shutdown() {
        return CompletableFuture.runAsync(() -> {
            if (member.getLifecycleService().isRunning()) {
                nodes.removeEntryListener(publishListener);
                nodes.removeEntryListener(takeOverListener);
                summaries.removeEntryListener(summaryListener);
                inventory.removeEntryListener(inventoryListener);
                nodes.removeEntryListener(nodeListener);
                quotas.removeEntryListener(quotaListener);
                nodes.removePartitionLostListener(nodeLossListener);
                quotas.removePartitionLostListener(quotaLossListener);
                member.getPartitionService().removeMigrationListener(migrationListener);
                member.getLifecycleService().removeLifecycleListener(mergeListener);
                if (ownsMember) {
                    member.shutdown();
                }
            }
            loader.shutdownNow();
            ready.completeExceptionally(new ClusterStateUnavailableException("the store was shut down", null));
            if (ownedExecutor != null) {
                ownedExecutor.shutdown();
            }
        }, task -> new Thread(task, "vgpu-store-shutdown").start());
    }

    // ------------------------------------------------------------------ nodes

    @Override
    public CompletionStage<Boolean> registerNode(NodeInventory inventory) {
        return stages.call("register node " + inventory.name(),
                () -> nodes.submitToKey(inventory.name(), new RegisterNodeProcessor(inventory)), changed -> changed);
    }

    @Override
    public CompletionStage<Boolean> removeNode(String node) {
        return stages.call("remove node " + node, () -> nodes.submitToKey(node, new RemoveNodeProcessor()), uids -> {
            if (uids == null) {
                return false;
            }
            for (String uid : uids) {
                unindex(uid, node);
            }
            return true;
        });
    }

    // ------------------------------------------------------------------ pod charges

    @Override
    public CompletionStage<ReserveOutcome> reserve(String node, PodRef pod, PodAllocation allocation, long nowMillis,
                                                   long deadlineMillis) {
        return stages.direct("reserve " + pod + " on " + node,
                () -> nodes.submitToKey(node, new ReserveSlicesProcessor(pod, allocation, nowMillis, deadlineMillis)),
                outcome -> {
                    if (outcome.isReserved()) {
                        stages.afterwards(() -> move(pod.uid(), node));
                    }
                    return outcome;
                });
    }

    @Override
    public CompletionStage<ConfirmOutcome> confirm(String node, PodRef pod, PodAllocation fallback, long nowMillis) {
        return stages.direct("confirm " + pod + " on " + node,
                () -> nodes.submitToKey(node, new ConfirmProcessor(pod, fallback, nowMillis)), outcome -> {
                    if (outcome instanceof ConfirmOutcome.Confirmed c && c.via() == ConfirmOutcome.Via.RE_RESERVED) {
                        stages.afterwards(() -> move(pod.uid(), node));
                    }
                    return outcome;
                });
    }

    @Override
    public CompletionStage<ConfirmLockOutcome> confirmAndLock(String node, PodRef pod, PodAllocation fallback,
                                                              long nowMillis, long lockTimeoutMillis) {
        return stages.direct("confirm and lock " + pod + " on " + node,
                () -> nodes.submitToKey(node, new ConfirmLockProcessor(pod, fallback, nowMillis, lockTimeoutMillis)),
                outcome -> {
                    if (outcome.confirm() instanceof ConfirmOutcome.Confirmed c
                            && c.via() == ConfirmOutcome.Via.RE_RESERVED && outcome.lock() != null
                            && outcome.lock().holds()) {
                        stages.afterwards(() -> move(pod.uid(), node));
                    }
                    return outcome;
                });
    }

    @Override
    public CompletionStage<Boolean> observeBound(String node, PodRef pod, PodAllocation allocation) {
        return stages.call("observe " + pod + " bound on " + node,
                () -> nodes.submitToKey(node, new ObserveBoundProcessor(pod, allocation)), changed -> {
                    if (changed) {
                        index(pod.uid(), node);
                    }
                    return changed;
                });
    }

    @Override
    public CompletionStage<Boolean> release(String node, String podUid) {
        return stages.call("release " + podUid + " on " + node,
                () -> nodes.submitToKey(node, new ReleaseSlicesProcessor(podUid)), released -> {
                    unindex(podUid, node);
                    return released;
                });
    }

    @Override
    public CompletionStage<Boolean> releaseReservation(String node, String podUid) {
        return stages.call("release the reservation of " + podUid + " on " + node,
                () -> nodes.submitToKey(node, new ReleaseReservationProcessor(podUid)), released -> {
                    if (released) {
                        unindex(podUid, node);
                    }
                    return released;
                });
    }

    @Override
    public CompletionStage<Optional<String>> podNode(String podUid) {
        return stages.call("look up pod " + podUid, () -> podIndex.getAsync(podUid), Optional::ofNullable);
    }

    /**
     * Sweeps only keys that this replica owns and whose local snapshot shows something expired, so that the sweep
     * costs nothing when nothing expired and N replicas do not sweep N times. A key changed a few milliseconds ago
     * elsewhere is swept at the next call at the latest.
     */
    @Override
    public CompletionStage<Integer> sweepExpired(long nowMillis) {
        Set<String> nodeKeys = new HashSet<>();
        owned.all().forEach(s -> {
            if (s.hasExpiredAt(nowMillis)) {
                nodeKeys.add(s.name());
            }
        });
        Set<String> quotaKeys = new HashSet<>();
        quotaSnapshot.values().forEach(q -> {
            if (q.hasExpiredAt(nowMillis) && ownsKey(q.namespace())) {
                quotaKeys.add(q.namespace());
            }
        });
        AtomicInteger dropped = new AtomicInteger();
        CompletableFuture<Integer> nodeSweep = nodeKeys.isEmpty() ? CompletableFuture.completedFuture(0)
                : stages.call("sweep expired reservations",
                        () -> nodes.submitToKeys(nodeKeys, new ExpireProcessor(nowMillis)), byNode -> {
                            byNode.forEach((node, uids) -> {
                                for (String uid : uids) {
                                    unindex(uid, node);
                                }
                                dropped.addAndGet(uids.length);
                            });
                            return 0;
                        });
        CompletableFuture<Integer> quotaSweep = quotaKeys.isEmpty() ? CompletableFuture.completedFuture(0)
                : stages.call("sweep expired quota charges",
                        () -> quotas.submitToKeys(quotaKeys, new ExpireQuotaProcessor(nowMillis)), byNamespace -> {
                            byNamespace.values().forEach(uids -> dropped.addAndGet(uids.length));
                            return 0;
                        });
        return nodeSweep.thenCombine(quotaSweep, (a, b) -> dropped.get());
    }

    // ------------------------------------------------------------------ node lock

    @Override
    public CompletionStage<LockOutcome> lockNode(String node, String podNamespace, String podName, long nowMillis,
                                                 long timeoutMillis) {
        return stages.direct("lock node " + node + " for " + podNamespace + "/" + podName,
                () -> nodes.submitToKey(node, new LockNodeProcessor(podNamespace, podName, nowMillis, timeoutMillis)),
                outcome -> outcome);
    }

    @Override
    public CompletionStage<UnlockOutcome> unlockNode(String node, String podNamespace, String podName) {
        return stages.call("unlock node " + node + " for " + podNamespace + "/" + podName,
                () -> nodes.submitToKey(node, new UnlockNodeProcessor(podNamespace, podName)), outcome -> outcome);
    }

    // ------------------------------------------------------------------ quota

    @Override
    public CompletionStage<Boolean> setQuotaLimits(String namespace, QuotaLimits limits) {
        return stages.call("set quota limits of " + namespace,
                () -> quotas.submitToKey(namespace, new SetQuotaLimitsProcessor(limits)), changed -> changed);
    }

    @Override
    public CompletionStage<QuotaOutcome> reserveQuota(String namespace, String podUid, long mem, long cores,
                                                      long nowMillis, long deadlineMillis) {
        return stages.call("reserve quota of " + podUid + " in " + namespace,
                () -> quotas.submitToKey(namespace,
                        new ReserveQuotaProcessor(podUid, mem, cores, nowMillis, deadlineMillis)), outcome -> outcome);
    }

    @Override
    public CompletionStage<Boolean> observeQuota(String namespace, String podUid, long mem, long cores) {
        return stages.call("observe quota of " + podUid + " in " + namespace,
                () -> quotas.submitToKey(namespace, new ObserveQuotaProcessor(podUid, mem, cores)), changed -> changed);
    }

    @Override
    public CompletionStage<Boolean> releaseQuota(String namespace, String podUid) {
        return stages.call("release quota of " + podUid + " in " + namespace,
                () -> quotas.submitToKey(namespace, new ReleaseQuotaProcessor(podUid)), released -> released);
    }

    // ------------------------------------------------------------------ local reads

    @Override
    public Collection<NodeView> nodes() {
        return views.all();
    }

    @Override
    public NodeView node(String name) {
        return views.get(name);
    }

    @Override
    public long viewMark() {
        return views.changes().mark();
    }

    @Override
    public boolean viewsChangedSince(long mark, Consumer<String> changed) {
        return views.changes().changedSince(mark, changed);
    }

    /**
     * The version of the node value this replica's view of {@code name} was made from ({@link NodeSummary#version}),
     * or -1 when the view holds no summary of it. For diagnostics (the debug dump, the chaos checker): scoring never
     * needs it.
     */
    public long viewVersion(String name) {
        NodeSummary summary = views.summary(name);
        return summary == null ? -1 : summary.version();
    }

    @Override
    public NodeState nodeState(String name) {
        return owned.get(name);
    }

    @Override
    public CompletionStage<Optional<NodeState>> readNode(String name) {
        NodeState local = owned.get(name);
        if (local != null) {
            return CompletableFuture.completedFuture(Optional.of(local));
        }
        return stages.call("read node " + name, () -> nodes.getAsync(name), Optional::ofNullable);
    }

    @Override
    public CompletionStage<Optional<NodeState>> readStoredNode(String name) {
        // the owned copy is fed by the node map's local events and lags the key under load (the fan-out row's fill:
        // a resync found 21,769 stored charges missing and read every such pod live)
        return stages.call("read node " + name, () -> nodes.getAsync(name), Optional::ofNullable);
    }

    /**
     * Every node value whose key this member owns, registered or not (a node that is not registered yet may hold
     * charges from informer ingest): for debug dumps; the replicas' dumps together hold every node. No network.
     */
    public Collection<NodeState> nodeStates() {
        return List.copyOf(owned.all());
    }

    @Override
    public QuotaState quota(String namespace) {
        QuotaState q = quotaSnapshot.get(namespace);
        return q == null ? QuotaState.absent(namespace) : q;
    }

    @Override
    public boolean ownsNode(String node) {
        return ownsKey(node);
    }

    @Override
    public void onResync(Consumer<Predicate<String>> listener) {
        resync.add(listener);
    }

    // ------------------------------------------------------------------ helpers

    private boolean ownsKey(String key) {
        Partition partition = partitions.of(key);
        Member owner = partition == null ? null : partition.getOwner();
        return owner != null && owner.localMember();
    }

    /**
     * Points the pod index at the node the pod's charge is on. Not awaited by the caller's stage (one network hop
     * per decision); a failure only delays the release of a moved pod's old reservation until it expires.
     */
    private void index(String podUid, String node) {
        followUp("index pod " + podUid + " on " + node,
                () -> podIndex.submitToKey(podUid, new SetPodNodeProcessor(node)));
    }

    /**
     * A decision placed the pod on {@code node} (a reservation, or a bind's re-reservation): points the pod index at
     * it and releases the pod's entry on the node the index pointed at before, if another (one entry per pod: a
     * re-filtered pod whose earlier reservation or binding nobody else releases, e.g. a filter whose answer was lost
     * with its replica, then a filter of a copy without the annotation, or the Bound charge of a Binding that failed
     * after its confirmation). Not for observations ({@link #observeBound}): an informer event may be older than the
     * entry it would replace.
     *
     * <p>A known gap (docs/reliability.md, "Limits"): the index writes of one pod's two decisions may land out of
     * order (one retried across a member's death or a migration), and then the earlier decision's write releases the
     * later one's entry, a binding included. Releasing only reservations here closes it, but leaves a failed
     * Binding's charge to the phantom sweep, past the harness's 15 s bound for a move when the sweeping owner dies
     * (a soak of 2026-12-07 found it at once); ordering the writes (a decision time in the index) is the fix.
     */
    private void move(String podUid, String node) {
        String what = "index pod " + podUid + " on " + node;
        stages.call(what, () -> podIndex.submitToKey(podUid, new SetPodNodeProcessor(node)), previous -> previous)
                .whenComplete((previous, error) -> {
                    if (error != null) {
                        LOG.log(Level.WARNING, what + " failed: " + error.getMessage());
                    } else if (previous != null && !previous.equals(node)) {
                        followUp("release moved pod " + podUid + " on " + previous,
                                () -> nodes.submitToKey(previous, new ReleaseSlicesProcessor(podUid)));
                    }
                });
    }

    private void unindex(String podUid, String node) {
        followUp("unindex pod " + podUid + " from " + node,
                () -> podIndex.submitToKey(podUid, new ClearPodNodeProcessor(node)));
    }

    private <T> void followUp(String what, Supplier<CompletionStage<T>> call) {
        stages.call(what, call, result -> result).whenComplete((result, error) -> {
            if (error != null) {
                LOG.log(Level.WARNING, what + " failed: " + error.getMessage());
            }
        });
    }

    private static ExecutorService callbackPool() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(2, task -> {
            Thread t = new Thread(task, "vgpu-store-callback-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
