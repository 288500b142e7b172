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
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
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
import java.util.function.Predicate;

/**
 * Turns informer events into idempotent changes of the shared state (DESIGN.md §3 "Ingest once"):
 * only for node keys this replica owns, so N replicas do not write N times.
 * <ul>
 *   <li>node upsert: register its devices from {@code hami.io/node-nvidia-register} (an undecodable or
 *       missing annotation keeps what is registered, as HAMi does); when the node's
 *       {@code hami.io/mutex.lock} annotation is gone, release the lock held in the node's state;</li>
 *   <li>node delete: forget the node;</li>
 *   <li>pod add/update: a pod with {@code spec.nodeName} or a {@code bind-phase} is charged as Bound
 *       (filter annotations alone never charge); a finished pod releases its charge;</li>
 *   <li>pod delete: release its charge.</li>
 * </ul>
 * Never blocks: every change is submitted and its outcome only logged.
 *
 * <p>{@link #resync} re-applies the informer cache to keys this replica has just become the owner of
 * (migration, promotion after a member died, partition loss), since events for them may have been dropped
 * while another replica owned them or lost with a dead owner:
 * <pre>
 *   moved keys ──► every cached pod charged there: ingest again (bound ⇒ observeBound, finished ⇒ release)
 *              ──► every Bound charge there whose pod the cache lacks: live read; gone ⇒ release
 *              ──► when all of that is stored: every cached node there: ingest again (register)
 * </pre>
 * Pods go first: after a partition loss the node key is absent, which refuses reservations, and it becomes
 * eligible again only when its registration is re-applied, i.e. after its bound pods are charged again.
 */
public final class StateIngest implements ClusterEvents {

    private static final Logger LOG = LoggerFactory.getLogger(StateIngest.class);

    /**
     * A lock taken in the shared state is written to the node a moment later; node events seen in between
     * must not release it.
     */
    static final long LOCK_GRACE_MILLIS = 5_000;

    private final ClusterState state;
    private final NodeHealth health;
    private final Clock clock;
    /** Last lock annotation seen per node (informer events arrive one at a time). */
    private final Map<String, String> lastLock = new ConcurrentHashMap<>();

    /**
     * @param state  the shared state to feed
     * @param health judges a node (handshake, allocatable GPUs); an unhealthy node's devices are removed
     * @param clock  the time source (lock grace)
     */
    public StateIngest(ClusterState state, NodeHealth health, Clock clock) {
        this.state = state;
        this.health = health;
        this.clock = clock;
    }

    @Override
    public void nodeUpserted(NodeObservation node) {
        if (!state.ownsNode(node.name())) {
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
        releaseLockWhenAnnotationGone(node);
    }

    @Override
    public void nodeDeleted(NodeObservation lastKnown) {
        lastLock.remove(lastKnown.name());
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
     * Re-ingests the keys this replica has just become the owner of (see the class comment). Returns at once;
     * the stage completes when every change it made has been stored (failures are logged, never fail it).
     *
     * @param keys  node names to resync (the store's resync predicate: moved or lost keys this replica owns)
     * @param cache the informer caches
     * @param pods  for live reads of pods the cache lacks (charges whose pod vanished unseen are released)
     */
    public CompletionStage<Void> resync(Predicate<String> keys, ClusterCache cache, PodWriter pods) {
        Map<String, NodeObservation> nodes = new HashMap<>();
        cache.nodes().forEach(n -> {
            if (keys.test(n.name())) {
                nodes.put(n.name(), n);
            }
        });
        Set<String> cachedUids = new HashSet<>();
        List<CompletableFuture<?>> charged = new ArrayList<>();
        for (ObservedPod pod : cache.pods()) {
            cachedUids.add(pod.spec().uid());
            String node = chargedNode(pod.spec());
            if (node != null && keys.test(node)) {
                charged.add(settled(ingestPod(pod)));
            }
        }
        Set<String> stateNodes = new HashSet<>(nodes.keySet());
        state.nodes().forEach(v -> {
            if (keys.test(v.name())) {
                stateNodes.add(v.name());
            }
        });
        for (String node : stateNodes) {
            charged.add(settled(releaseVanished(node, cachedUids, pods)));
        }
        if (!nodes.isEmpty() || !charged.isEmpty()) {
            LOG.info("resync: {} moved node(s) with {} cached pod(s) re-ingested", stateNodes.size(), charged.size());
        }
        return CompletableFuture.allOf(charged.toArray(CompletableFuture[]::new))
                .thenRun(() -> nodes.values().forEach(this::nodeUpserted));
    }

    /** Bound charges on {@code node} whose pod the cache does not hold: released when the API says it is gone. */
    private CompletionStage<?> releaseVanished(String node, Set<String> cachedUids, PodWriter pods) {
        NodeState current = state.nodeState(node);
        if (current == null || !state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<?>> releases = new ArrayList<>();
        current.charges().forEach((uid, charge) -> {
            if (charge instanceof PodCharge.Bound && !cachedUids.contains(uid)) {
                PodKey key = new PodKey(charge.podNamespace(), charge.podName(), uid);
                releases.add(pods.isGone(key).thenCompose(gone -> {
                    if (!gone) {
                        return CompletableFuture.completedFuture(false);
                    }
                    LOG.info("resync: {} is gone; releasing its charge on {}", key, node);
                    return state.release(node, uid);
                }).toCompletableFuture());
            }
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
            logFailure("release " + lastKnown.key(), state.release(node, lastKnown.spec().uid()));
        }
    }

    private CompletionStage<?> ingestPod(ObservedPod pod) {
        PodSpec spec = pod.spec();
        String node = chargedNode(spec);
        if (node == null || !state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        if (pod.finished()) {
            return logFailure("release " + pod.key(), state.release(node, spec.uid()));
        }
        // bindPhase() is null when the annotation is absent (a pod the filter has just annotated)
        boolean bound = !pod.boundNode().isEmpty() || (pod.bindPhase() != null && !pod.bindPhase().isEmpty());
        PodAllocation allocation = allocation(spec);
        if (bound && allocation != null && !pod.terminating()) {
            return logFailure("observe bound " + pod.key(), state.observeBound(node,
                    new PodRef(spec.uid(), spec.namespace(), spec.name()), allocation));
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
    private void releaseLockWhenAnnotationGone(NodeObservation node) {
        String seenBefore = node.lock() == null ? lastLock.remove(node.name()) : lastLock.put(node.name(), node.lock());
        if (node.lock() != null) {
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
