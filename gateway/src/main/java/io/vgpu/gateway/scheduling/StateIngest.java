package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.vgpu.gateway.scheduling.IngestFailures.logged;

/**
 * Turns informer events into idempotent changes of the shared state (DESIGN.md §3 "Ingest once"):
 * only for node keys this replica owns, so N replicas do not write N times.
 * <ul>
 *   <li>node upsert: {@link NodeRegistrations} (register its devices from {@code hami.io/node-nvidia-register};
 *       a node not registered yet only once its bound pods are charged, by {@link #registerAwaiting}; an unchanged
 *       one not again, unless a net redelivers it; a node labelled {@code vgpu.io/mode=dra} is forgotten); every
 *       node event (owned or not) goes to {@link NodeLocks#observed}, which releases the shared lock when the
 *       node's {@code hami.io/mutex.lock} annotation is gone;</li>
 *   <li>node delete: forget the node ({@link NodeRegistrations#deleted});</li>
 *   <li>pod add/update: a pod with {@code spec.nodeName} or a {@code bind-phase} is charged as Bound
 *       (filter annotations alone never charge) on its {@code hami.io/vgpu-node}, and only there: a pod whose
 *       node moved has its older charge released, and a late observation of a pod released meanwhile charges
 *       nothing ({@link ChargeMoves}); a finished pod releases its charge;</li>
 *   <li>pod delete: release its charge.</li>
 * </ul>
 * Never blocks: every change is submitted and its outcome only logged. Pod changes pass an {@link IngestWindow}
 * (at most {@value #DEFAULT_IN_FLIGHT} in flight, the rest queued in event order): a re-list of every pod does not
 * put every pod's entry processor in flight at once.
 *
 * <p>{@link #resync} re-applies the informer cache to keys this replica has just become the owner of
 * (migration, promotion after a member died, partition loss), since events for them may have been dropped
 * while another replica owned them or lost with a dead owner:
 * <pre>
 *   moved keys ──► (wait until the informers have listed, and for the pod changes already submitted)
 *              ──► every cached pod charged there: ingest again (bound ⇒ observeBound, finished ⇒ release)
 *              ──► every Bound charge there whose pod the cache lacks: live read; gone ⇒ release
 *              ──► every Bound charge there whose pod the cache has on another node: live read; elsewhere ⇒ release
 *              ──► when all of that is stored: every cached node there: ingest again (register)
 * </pre>
 * Pods go first: a node not registered yet becomes eligible only after its bound pods are charged again.
 */
public final class StateIngest implements ClusterEvents {

    private static final long RESYNC_WAIT_MILLIS = 250;
    /** Pod changes in flight at once (issue 6): every partition thread busy; a re-list queues closures. */
    static final int DEFAULT_IN_FLIGHT = 512;

    private final ClusterState state;
    /** One charge per pod UID: a pod whose node moved is charged on its new node only (also the phantom sweep's). */
    final ChargeMoves moves;
    /** Pod charges and releases go through it, in event order. */
    private final IngestWindow window;
    private final LiveReads reads;
    /** The resync's reads of keys as stored, a bounded number in flight (its own and {@link ChargeMoves}'). */
    private final StoredReads stored;
    /** Follows the nodes' lock annotations and releases the shared lock when they go. */
    private final NodeLocks locks;
    /** Registers nodes, an unregistered one only once its bound pods are charged. */
    private final NodeRegistrations registrations;

    /**
     * @param state  the shared state to feed
     * @param health judges a node (handshake, allocatable GPUs); an unhealthy node's devices are removed
     * @param pods   live reads of pods: a pod whose node moved, a charge whose pod the cache lacks or names elsewhere
     * @param locks  the node lock, told of every node event (it releases the shared lock when the annotation goes)
     */
    public StateIngest(ClusterState state, NodeHealth health, PodWriter pods, NodeLocks locks) {
        this(state, health, pods, locks, DEFAULT_IN_FLIGHT);
    }

    /** As above, with at most {@code inFlight} pod changes submitted to the store at once (at least 1). */
    StateIngest(ClusterState state, NodeHealth health, PodWriter pods, NodeLocks locks, int inFlight) {
        this.state = state;
        this.locks = locks;
        this.stored = new StoredReads(state);
        this.moves = new ChargeMoves(state, pods, stored);
        this.window = new IngestWindow(inFlight);
        this.reads = new LiveReads(pods);
        this.registrations = new NodeRegistrations(state, health);
    }

    /**
     * Changes not applied yet: pod changes in flight or queued for the store, and the resyncs' reads (live reads of
     * pods, reads of keys as stored) in flight or queued. A resync of keys taken over at 200,000 pods queues tens of
     * thousands of live reads, each holding its futures until its turn (about 35 MiB on one replica of the heap row);
     * {@code vgpu_ingest_backlog} shows it, and the heap row waits for it to drain.
     */
    public int backlog() {
        return window.pending() + reads.pending() + stored.pending();
    }

    @Override
    public void nodeUpserted(NodeObservation node) {
        nodeObserved(node, false);
    }

    /** As {@link #nodeUpserted}, except that its registration is written even when unchanged (a net's delivery). */
    @Override
    public void nodeRedelivered(NodeObservation node) {
        nodeObserved(node, true);
    }

    private void nodeObserved(NodeObservation node, boolean net) {
        boolean owned = state.ownsNode(node.name());
        locks.observed(node, owned);
        if (owned && net) {
            registrations.reasserted(node, false);
        } else if (owned) {
            registrations.upserted(node);
        }
    }

    @Override
    public void nodeDeleted(NodeObservation lastKnown) {
        locks.forget(lastKnown.name());
        registrations.deleted(lastKnown.name());
    }

    @Override
    public void podAdded(ObservedPod pod) {
        ingestPod(pod);
    }

    @Override
    public void podUpdated(ObservedPod pod) {
        ingestPod(pod);
    }

    /**
     * Re-ingests the keys this replica has just become the owner of (see the class comment); also run periodically
     * over every owned key as a safety net, which costs no write and no API read while the state matches the
     * caches. Returns at once; the stage completes when every change it made has been stored (failures are
     * logged, never fail it).
     *
     * @param keys  node names to resync (the store's resync predicate: moved or lost keys this replica owns)
     * @param cache the informer caches
     */
    public CompletionStage<Void> resync(Predicate<String> keys, ClusterCache cache) {
        if (!cache.hasSynced()) {
            // a replica that has just joined gets keys before its informers have listed: wait for the list, or a
            // pod deleted meanwhile would keep its charge
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(RESYNC_WAIT_MILLIS,
                    TimeUnit.MILLISECONDS, Runnable::run)).thenCompose(x -> resync(keys, cache));
        }
        // after the charges the informers' events asked for already: run ahead of them (the first list), a resync
        // found them missing and read every such pod live, 21,769 reads in the fan-out row at 100 pods per node
        return window.settled().thenCompose(x -> resyncSettled(keys, cache));
    }

    private CompletionStage<Void> resyncSettled(Predicate<String> keys, ClusterCache cache) {
        Map<String, NodeObservation> nodes = new HashMap<>();
        cache.nodes().forEach(n -> {
            if (keys.test(n.name())) {
                nodes.put(n.name(), n);
            }
        });
        // one read per node for all its cached pods (a read per pod moved 100 node values per node at 100 pods/node)
        Map<String, Boolean> selected = new HashMap<>();
        Map<String, List<ObservedPod>> chargedThere = new HashMap<>();
        for (ObservedPod pod : cache.pods()) {
            String node = Recorded.chargedNode(pod.spec());
            if (node != null && selected.computeIfAbsent(node, keys::test)) {
                chargedThere.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
            }
        }
        List<CompletableFuture<?>> charged = new ArrayList<>();
        // a node whose pods could not all be charged is not registered by this resync (it waits for the next one)
        Set<String> uncharged = ConcurrentHashMap.newKeySet();
        chargedThere.forEach((node, cached) -> charged.add(reingest(node, cached).toCompletableFuture()
                .handle((r, e) -> {
                    if (e != null) {
                        uncharged.add(node);
                    }
                    return null;
                })));
        charged.add(settled(releaseVanished(keys, cache)));
        return CompletableFuture.allOf(charged.toArray(CompletableFuture[]::new))
                .thenRun(() -> nodes.values().forEach(n -> registrations.reasserted(n, !uncharged.contains(n.name()))));
    }

    /**
     * Releases the Bound charges on the nodes {@code keys} selects (and this replica owns) that no pod accounts for:
     * a pod the informer cache does not hold and the API server says is gone (its delete event was lost: it arrived
     * while the key changed owner, or its owner died before applying it), or a pod the cache and a live read show on
     * another node (a move whose release failed, or a late observation that re-charged the old node). A pod the
     * cache lacks but the API still has (a lagging cache) keeps its charge. Call it after a resync and periodically.
     * Returns at once.
     */
    public CompletionStage<Void> releaseVanished(Predicate<String> keys, ClusterCache cache) {
        if (!cache.hasSynced()) {
            return CompletableFuture.completedFuture(null);
        }
        Set<String> nodes = new HashSet<>();
        state.nodes().forEach(v -> nodes.add(v.name()));
        cache.nodes().forEach(n -> nodes.add(n.name()));
        List<CompletableFuture<?>> releases = new ArrayList<>();
        nodes.stream().filter(keys).forEach(node -> releases.add(settled(moves.releaseVanished(node, cache))));
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
    }

    /**
     * Registers the owned nodes whose first registration waits for their bound pods' charges (see
     * {@link NodeRegistrations}): a resync of those keys, which charges the cached bound pods first. Call it
     * periodically once the informers have listed; returns at once (completed when none waits).
     */
    public CompletionStage<Void> registerAwaiting(ClusterCache cache) {
        Set<String> awaiting = registrations.takeAwaiting();
        if (awaiting.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return resync(name -> awaiting.contains(name) && state.ownsNode(name), cache);
    }

    /** Re-ingests the cached pods charged on one moved key, against one read of the key. */
    private CompletionStage<?> reingest(String node, List<ObservedPod> cached) {
        // the key as stored: the owned copy lags it (a key just taken over, events behind under load)
        return stored.read(node).thenCompose(current -> {
            List<CompletableFuture<?>> each = new ArrayList<>(cached.size());
            for (ObservedPod pod : cached) {
                PodCharge charge = current.map(s -> s.charge(pod.spec().uid())).orElse(null);
                each.add(reingest(pod, node, charge).toCompletableFuture());
            }
            return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
        });
    }

    /**
     * Re-ingests one cached pod of a moved key, given its charge there. A bound pod whose charge is missing or differs
     * is first read live: the cache may lag (a slow watch), and charging a pod that is gone already would leave a
     * charge nobody releases; a charge that matches the cache needs nothing.
     */
    private CompletionStage<?> reingest(ObservedPod cached, String node, PodCharge charge) {
        PodAllocation allocation = Recorded.allocation(cached.spec());
        boolean bound = cached.bindStarted();
        if (cached.finished()) {
            return charge == null ? CompletableFuture.completedFuture(null) : ingestPod(cached);
        }
        if (!bound || allocation == null || cached.terminating()
                || (charge instanceof PodCharge.Bound b && b.allocation().sameDevices(allocation))) {
            return CompletableFuture.completedFuture(null); // nothing to charge, or charged as the cache says
        }
        return reads.read(cached.key(), live -> live.isPresent()
                ? ingestPod(live.get()) : CompletableFuture.completedFuture(null));
    }

    private static CompletableFuture<?> settled(CompletionStage<?> stage) {
        return stage.toCompletableFuture().handle((r, e) -> null);
    }

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        String node = Recorded.chargedNode(lastKnown.spec());
        if (node != null && state.ownsNode(node)) {
            logged("release " + lastKnown.key(), window.submit(() -> state.release(node, lastKnown.spec().uid())));
        }
    }

    /** Applies one pod observation (package-private so tests can await it). */
    CompletionStage<?> ingestPod(ObservedPod pod) {
        PodSpec spec = pod.spec();
        String node = Recorded.chargedNode(spec);
        if (node == null || !state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        if (pod.finished()) {
            return logged("release " + pod.key(), window.submit(() -> state.release(node, spec.uid())));
        }
        // not started: a pod the filter has just annotated, or one filtered again after a failed bind (its reservation)
        boolean bound = pod.bindStarted();
        PodAllocation allocation = Recorded.allocation(spec);
        if (bound && allocation != null && !pod.terminating()) {
            PodRef ref = new PodRef(spec.uid(), spec.namespace(), spec.name());
            return logged("observe bound " + pod.key(), window.submit(() -> moves.recordBound(node, ref,
                    allocation, pod.key(), node.equals(pod.boundNode()))));
        }
        return CompletableFuture.completedFuture(null);
    }

}
