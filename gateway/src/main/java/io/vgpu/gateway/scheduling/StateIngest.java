package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodKey;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.NodeRegistration;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Turns informer events into idempotent changes of the shared state (DESIGN.md §3 "Ingest once"):
 * only for node keys this replica owns, so N replicas do not write N times.
 * <ul>
 *   <li>node upsert of a node labelled {@code vgpu.io/mode=dra}: forget its devices (DRA mode; stale register
 *       annotations are ignored, and no handshake is stamped);</li>
 *   <li>node upsert: register its devices from {@code hami.io/node-nvidia-register} (an undecodable or
 *       missing annotation keeps what is registered, as HAMi does); when the node's
 *       {@code hami.io/mutex.lock} annotation is gone, release the lock held in the node's state;</li>
 *   <li>node delete: forget the node;</li>
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
 *   moved keys ──► (wait until the informers have listed)
 *              ──► every cached pod charged there: ingest again (bound ⇒ observeBound, finished ⇒ release)
 *              ──► every Bound charge there whose pod the cache lacks: live read; gone ⇒ release
 *              ──► every Bound charge there whose pod the cache has on another node: live read; elsewhere ⇒ release
 *              ──► when all of that is stored: every cached node there: ingest again (register)
 * </pre>
 * Pods go first: after a partition loss the node key is absent, which refuses reservations, and it becomes
 * eligible again only when its registration is re-applied, i.e. after its bound pods are charged again.
 */
public final class StateIngest implements ClusterEvents, LockReleases {

    private static final Logger LOG = LoggerFactory.getLogger(StateIngest.class);

    /**
     * A lock taken in the shared state is written to the node a moment later; node events seen in between
     * must not release it.
     */
    static final long LOCK_GRACE_MILLIS = 5_000;
    private static final long RESYNC_WAIT_MILLIS = 250;
    /**
     * Pod changes in flight at once (issue 6): enough to keep every partition thread busy, few enough that a
     * re-list of 200,000 pods queues closures, not 200,000 entry-processor invocations.
     */
    static final int DEFAULT_IN_FLIGHT = 512;

    private final ClusterState state;
    private final NodeHealth health;
    private final Clock clock;
    private final PodWriter pods;
    /** One charge per pod UID: a pod whose node moved is charged on its new node only. */
    private final ChargeMoves moves;
    /** Pod charges and releases go through it, in event order. */
    private final IngestWindow window;
    /** Last lock annotation seen per node, every node (informer events arrive one at a time). */
    private final Map<String, String> lastLock = new ConcurrentHashMap<>();
    /** Per node, the last lock annotation seen to go away, every node. */
    private final Map<String, String> lastReleased = new ConcurrentHashMap<>();

    /**
     * @param state  the shared state to feed
     * @param health judges a node (handshake, allocatable GPUs); an unhealthy node's devices are removed
     * @param clock  the time source (lock grace)
     * @param pods   live reads of pods: a pod whose node moved, a charge whose pod the cache lacks or names elsewhere
     */
    public StateIngest(ClusterState state, NodeHealth health, Clock clock, PodWriter pods) {
        this(state, health, clock, pods, DEFAULT_IN_FLIGHT);
    }

    /** As above, with at most {@code inFlight} pod changes submitted to the store at once (at least 1). */
    StateIngest(ClusterState state, NodeHealth health, Clock clock, PodWriter pods, int inFlight) {
        this.state = state;
        this.health = health;
        this.clock = clock;
        this.pods = pods;
        this.moves = new ChargeMoves(state, pods);
        this.window = new IngestWindow(inFlight);
    }

    @Override
    public void nodeUpserted(NodeObservation node) {
        String seenBefore = trackLock(node);
        if (!state.ownsNode(node.name())) {
            return;
        }
        if (node.draMode()) {
            // DRA mode (DESIGN.md §8): kube-scheduler allocates this node's GPUs from its ResourceSlice; a register
            // annotation left from device-plugin mode must not sell them a second time
            if (state.nodeState(node.name()) != null) {
                LOG.info("node {} is in DRA mode ({}={}): not eligible for the extender", node.name(),
                        DraNames.MODE_LABEL, DraNames.MODE_DRA);
                logFailure("remove node " + node.name(), state.removeNode(node.name()));
            }
            releaseLockWhenAnnotationGone(node, seenBefore);
            return;
        }
        Optional<NodeInventory> inventory = inventory(node);
        if (inventory.isEmpty()) {
            LOG.debug("node {}: no decodable {}; keeping what is registered", node.name(),
                    HamiAnnotations.NODE_NVIDIA_REGISTER);
        } else {
            health.healthy(node).whenComplete((healthy, e) -> {
                if (e == null && Boolean.FALSE.equals(healthy)) {
                    LOG.info("node {} is unhealthy (handshake expired, no allocatable GPUs): devices withdrawn",
                            node.name());
                    logFailure("remove node " + node.name(), state.removeNode(node.name()));
                } else {
                    logFailure("register node " + node.name(), state.registerNode(inventory.get()));
                }
            });
        }
        releaseLockWhenAnnotationGone(node, seenBefore);
    }

    @Override
    public void nodeDeleted(NodeObservation lastKnown) {
        lastLock.remove(lastKnown.name());
        lastReleased.remove(lastKnown.name());
        health.forget(lastKnown.name());
        if (state.ownsNode(lastKnown.name())) {
            logFailure("remove node " + lastKnown.name(), state.removeNode(lastKnown.name()));
        }
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
        Map<String, NodeObservation> nodes = new HashMap<>();
        cache.nodes().forEach(n -> {
            if (keys.test(n.name())) {
                nodes.put(n.name(), n);
            }
        });
        List<CompletableFuture<?>> charged = new ArrayList<>();
        for (ObservedPod pod : cache.pods()) {
            String node = chargedNode(pod.spec());
            if (node != null && keys.test(node)) {
                charged.add(settled(reingest(pod, node)));
            }
        }
        charged.add(settled(releaseVanished(keys, cache)));
        return CompletableFuture.allOf(charged.toArray(CompletableFuture[]::new))
                .thenRun(() -> nodes.values().forEach(this::nodeUpserted));
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
        Map<String, String> cachedNodes = new HashMap<>();
        cache.pods().forEach(p -> {
            String node = chargedNode(p.spec());
            cachedNodes.put(p.spec().uid(), node == null ? "" : node);
        });
        Set<String> nodes = new HashSet<>();
        state.nodes().forEach(v -> nodes.add(v.name()));
        cache.nodes().forEach(n -> nodes.add(n.name()));
        List<CompletableFuture<?>> releases = new ArrayList<>();
        for (String node : nodes) {
            if (keys.test(node)) {
                releases.add(settled(releaseVanished(node, cachedNodes)));
            }
        }
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
    }

    /**
     * Re-ingests one cached pod of a moved key. A bound pod whose charge is missing or differs is first read live:
     * the cache may lag (a slow watch), and charging a pod that is gone already would leave a charge nobody
     * releases; a charge that matches the cache needs nothing.
     */
    private CompletionStage<?> reingest(ObservedPod cached, String node) {
        PodAllocation allocation = allocation(cached.spec());
        NodeState current = state.nodeState(node);
        PodCharge charge = current == null ? null : current.charge(cached.spec().uid());
        boolean bound = !cached.boundNode().isEmpty() || (cached.bindPhase() != null && !cached.bindPhase().isEmpty());
        if (cached.finished()) {
            return charge == null ? CompletableFuture.completedFuture(null) : ingestPod(cached);
        }
        if (!bound || allocation == null || cached.terminating()
                || (charge instanceof PodCharge.Bound b && b.allocation().equals(allocation))) {
            return CompletableFuture.completedFuture(null); // nothing to charge, or charged as the cache says
        }
        return pods.readPod(cached.key()).thenCompose(live -> live.isPresent()
                ? ingestPod(live.get()) : CompletableFuture.completedFuture(null));
    }

    /**
     * Bound charges on {@code node} that no pod accounts for: the cache does not hold the pod and the API says it is
     * gone, or the cache names another node and so does a live read.
     *
     * @param cachedNodes the node each cached pod (by UID) is charged to ("" for none)
     */
    private CompletionStage<?> releaseVanished(String node, Map<String, String> cachedNodes) {
        NodeState current = state.nodeState(node);
        if (current == null || !state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<?>> releases = new ArrayList<>();
        current.charges().forEach((uid, charge) -> {
            if (!(charge instanceof PodCharge.Bound)) {
                return; // reservations expire on their own
            }
            PodKey key = new PodKey(charge.podNamespace(), charge.podName(), uid);
            String cachedNode = cachedNodes.get(uid);
            if (cachedNode != null) {
                if (!cachedNode.equals(node)) {
                    releases.add(moves.releaseIfMoved(node, key).toCompletableFuture());
                }
                return;
            }
            releases.add(pods.isGone(key).thenCompose(gone -> {
                if (!gone) {
                    return CompletableFuture.completedFuture(false);
                }
                LOG.info("pod {} is gone but still charged on {}: released (its delete was not applied)", key, node);
                return state.release(node, uid);
            }).toCompletableFuture());
        });
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
    }

    private static CompletableFuture<?> settled(CompletionStage<?> stage) {
        return stage.toCompletableFuture().handle((r, e) -> null);
    }

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        String node = chargedNode(lastKnown.spec());
        if (node != null && state.ownsNode(node)) {
            String uid = lastKnown.spec().uid();
            logFailure("release " + lastKnown.key(), window.submit(() -> state.release(node, uid)));
        }
    }

    /** Applies one pod observation (package-private so tests can await it). */
    CompletionStage<?> ingestPod(ObservedPod pod) {
        PodSpec spec = pod.spec();
        String node = chargedNode(spec);
        if (node == null || !state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        if (pod.finished()) {
            return logFailure("release " + pod.key(), window.submit(() -> state.release(node, spec.uid())));
        }
        // bindPhase() is null when the annotation is absent (a pod the filter has just annotated)
        boolean bound = !pod.boundNode().isEmpty() || (pod.bindPhase() != null && !pod.bindPhase().isEmpty());
        PodAllocation allocation = allocation(spec);
        if (bound && allocation != null && !pod.terminating()) {
            PodRef ref = new PodRef(spec.uid(), spec.namespace(), spec.name());
            return logFailure("observe bound " + pod.key(), window.submit(() -> moves.recordBound(node, ref,
                    allocation, pod.key(), node.equals(pod.boundNode()))));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** The node a pod is charged to: its {@code hami.io/vgpu-node} annotation (spec §8.1). */
    private static String chargedNode(PodSpec spec) {
        String node = spec.annotation(HamiAnnotations.VGPU_NODE);
        return node == null || node.isEmpty() ? null : node;
    }

    private static PodAllocation allocation(PodSpec spec) {
        String allocated = spec.annotation(HamiAnnotations.DEVICES_ALLOCATED);
        if (allocated == null) {
            return null;
        }
        Decoded<List<List<ContainerDevice>>> decoded = PodDevicesCodec.decode(allocated);
        return decoded.isOk() ? new PodAllocation(decoded.value(), spec.initContainers().size()) : null;
    }

    /** The registration of a node as the store keeps it, or empty when it has no decodable annotation. */
    static Optional<NodeInventory> inventory(NodeObservation node) {
        Decoded<NodeRegistration> reg = NodeRegisterCodec.read(node.annotations());
        if (!reg.isOk()) {
            return Optional.empty();
        }
        Map<String, String> fitAnnotations = new LinkedHashMap<>();
        String cordon = node.annotations().get(HamiAnnotations.DEVICE_CORDON);
        if (cordon != null) {
            fitAnnotations.put(HamiAnnotations.DEVICE_CORDON, cordon);
        }
        return Optional.of(new NodeInventory(node.name(), reg.value().devices(), fitAnnotations,
                reg.value().pairScores()));
    }

    /**
     * DESIGN.md §3: the shared lock is released only when the node shows the annotation gone. The annotation that
     * disappeared must name the holder: an observation that lags (a slow watch) may show an earlier holder's
     * annotation going away while a later holder's is not visible yet.
     */
    private void releaseLockWhenAnnotationGone(NodeObservation node, String seenBefore) {
        if (node.lock() != null) {
            return;
        }
        Decoded<NodeLock> owner = seenBefore == null ? null : NodeLockCodec.parse(seenBefore);
        if (owner != null && owner.isOk() && !owner.value().legacy()) {
            // the owner comes from the annotation that went away, not from the local snapshot: the snapshot's
            // listener event can trail the lock processor's answer, and a device plugin that allocates within a
            // millisecond removes the annotation before the snapshot shows the lock (the processor is
            // owner-checked, so a lock taken meanwhile by another pod is left alone)
            logFailure("unlock node " + node.name(), state.unlockNode(node.name(), owner.value().namespace(),
                    owner.value().name()));
            return;
        }
        NodeState current = state.nodeState(node.name());
        NodeLockHolder holder = current == null ? null : current.lock();
        if (holder == null) {
            return;
        }
        // released: the holder's annotation was there and is gone now, or no annotation appeared within the grace
        boolean released = seenBefore != null ? names(seenBefore, holder)
                : clock.millis() - holder.sinceMillis() > LOCK_GRACE_MILLIS;
        if (released) {
            logFailure("unlock node " + node.name(), state.unlockNode(node.name(), holder.namespace(), holder.name()));
        }
    }

    /**
     * The grace rule of {@link #releaseLockWhenAnnotationGone} on a timer, for nodes that see no event: releases
     * the shared lock of every node this replica owns whose lock annotation has not appeared (in this replica's
     * cache) within the grace. Such a lock is left by a lock call that failed after it applied (its backup did not
     * answer while a member died), by an unlock that failed, or by a binder that died between the two locks; left
     * alone it would hold the node until a contending bind takes it over. Releasing it is safe even when the
     * annotation is only late: {@code hami.io/mutex.lock}, written with resourceVersion guards, is the lock the
     * device plugin relies on, and the next binder finds it there. Call it periodically (the owner only acts on
     * its keys). Returns at once.
     *
     * @param owned the nodes this replica owns
     * @param cache the informer caches
     */
    public void releaseUnannotatedLocks(Predicate<String> owned, ClusterCache cache) {
        if (!cache.hasSynced()) {
            return;
        }
        long now = clock.millis();
        for (NodeView view : state.nodes()) {
            String node = view.name();
            NodeState current = state.nodeState(node);
            NodeLockHolder holder = current == null ? null : current.lock();
            if (holder != null && owned.test(node) && unannotatedPastGrace(cache, node, holder, now)) {
                LOG.info("node {}: shared lock of {}/{} has no annotation after {} ms, released", node,
                        holder.namespace(), holder.name(), now - holder.sinceMillis());
                logFailure("unlock node " + node, state.unlockNode(node, holder.namespace(), holder.name()));
            }
        }
    }

    /**
     * A shared lock older than the grace whose annotation this replica's cache does not show: its binder failed or
     * died between the two locks, and nobody will write the annotation or release the lock.
     */
    static boolean unannotatedPastGrace(ClusterCache cache, String node, NodeLockHolder holder, long nowMillis) {
        return nowMillis - holder.sinceMillis() > LOCK_GRACE_MILLIS
                && cache.node(node).map(n -> n.lock() == null).orElse(false);
    }

    /** Follows the node's lock annotation (every node, owned or not); returns the value it had before. */
    private String trackLock(NodeObservation node) {
        if (node.lock() != null) {
            return lastLock.put(node.name(), node.lock());
        }
        String seenBefore = lastLock.remove(node.name());
        if (seenBefore != null) {
            lastReleased.put(node.name(), seenBefore);
        }
        return seenBefore;
    }

    /**
     * The annotation this replica last saw go away on {@code node} names {@code holder} and was written after the
     * holder took the shared lock (annotation times have whole seconds, hence the second of slack), so it is this
     * holding's, not an earlier one of the same pod.
     */
    @Override
    public boolean sawReleased(String node, NodeLockHolder holder) {
        String released = lastReleased.get(node);
        if (released == null || !names(released, holder)) {
            return false;
        }
        Decoded<NodeLock> lock = NodeLockCodec.parse(released);
        return lock.value().time().toEpochMilli() >= holder.sinceMillis() - 1_000;
    }

    /** Whether a lock annotation value names the holder (a legacy value without an owner names nobody). */
    private static boolean names(String annotation, NodeLockHolder holder) {
        Decoded<NodeLock> lock = NodeLockCodec.parse(annotation);
        return lock.isOk() && lock.value().namesOwner() && lock.value().ownedBy(holder.namespace(), holder.name());
    }

    private static CompletionStage<?> logFailure(String what, CompletionStage<?> stage) {
        return stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("ingest: {} failed: {}", what, e.toString());
            }
        });
    }
}
