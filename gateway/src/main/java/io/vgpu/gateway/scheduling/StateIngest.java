package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
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
import io.vgpu.state.model.PodRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;

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

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        String node = chargedNode(lastKnown.spec());
        if (node != null && state.ownsNode(node)) {
            logFailure("release " + lastKnown.key(), state.release(node, lastKnown.spec().uid()));
        }
    }

    private void ingestPod(ObservedPod pod) {
        PodSpec spec = pod.spec();
        String node = chargedNode(spec);
        if (node == null || !state.ownsNode(node)) {
            return;
        }
        if (pod.finished()) {
            logFailure("release " + pod.key(), state.release(node, spec.uid()));
            return;
        }
        // bindPhase() is null when the annotation is absent (a pod the filter has just annotated)
        boolean bound = !pod.boundNode().isEmpty() || (pod.bindPhase() != null && !pod.bindPhase().isEmpty());
        PodAllocation allocation = allocation(spec);
        if (bound && allocation != null && !pod.terminating()) {
            logFailure("observe bound " + pod.key(), state.observeBound(node,
                    new PodRef(spec.uid(), spec.namespace(), spec.name()), allocation));
        }
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

    /** DESIGN.md §3: the shared lock is released only when the node shows the annotation gone. */
    private void releaseLockWhenAnnotationGone(NodeObservation node) {
        String seenBefore = node.lock() == null ? lastLock.remove(node.name()) : lastLock.put(node.name(), node.lock());
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
        // released: the annotation was there and is gone now, or it never appeared within the grace
        boolean released = seenBefore != null || clock.millis() - (holder == null ? 0 : holder.sinceMillis())
                > LOCK_GRACE_MILLIS;
        if (holder != null && released) {
            logFailure("unlock node " + node.name(), state.unlockNode(node.name(), holder.namespace(), holder.name()));
        }
    }

    private static void logFailure(String what, CompletionStage<?> stage) {
        stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("ingest: {} failed: {}", what, e.toString());
            }
        });
    }
}
