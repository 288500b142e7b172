package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.gateway.core.nodelock.NamespacedName;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process stand-in for the Kubernetes API server and the HAMi device plugin, as fast as a map: the
 * benchmark's "fast API sink". It implements the gateway's Kubernetes ports ({@link PodWriter},
 * {@link NodeLockPort}, and {@link ClusterCache} as a {@link MirrorCache}) over two maps and plays the informers by delivering every change to
 * the registered {@link ClusterEvents} listeners (one per replica: StateIngest and the quota feed), one event at a
 * time on its own "watch" thread, as the informers would. After a Binding it plays the device plugin: once
 * {@code allocateDelay} has passed it marks the pod {@code bind-phase=success} and removes the node lock, which the
 * node event then carries to the replicas' shared-state lock. With a live-pod bound it also plays the users whose
 * pods end: once more than {@code livePods} allocated pods are alive it deletes the oldest, and the DELETED event
 * reaches every replica as a watch would carry it, so a long run reaches a steady state instead of a full cluster.
 *
 * <p>All replicas share this one cache (their informers would each hold a copy of the same objects). Thread-safe:
 * writes to one object are serialised by the map's compute.
 */
final class FastApiSink extends MirrorCache implements ApiStandIn, AutoCloseable {

    private final List<ClusterEvents> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fast-sink-watch");
        t.setDaemon(true);
        return t;
    });
    private final Duration allocateDelay;
    private final AtomicLong version = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong allocated = new AtomicLong();
    private final AtomicLong deleted = new AtomicLong();
    private final int livePods;
    /** Allocated pods, oldest first, while {@link #livePods} bounds them; touched on the watch thread only. */
    private final ArrayDeque<PodAddress> alive = new ArrayDeque<>();

    /** @param allocateDelay how long the device plugin takes from the Binding to releasing the node lock */
    FastApiSink(Duration allocateDelay) {
        this(allocateDelay, 0);
    }

    /**
     * @param allocateDelay how long the device plugin takes from the Binding to releasing the node lock
     * @param livePods      how many allocated pods stay alive before the oldest is deleted; 0: every pod stays
     */
    FastApiSink(Duration allocateDelay, int livePods) {
        this.allocateDelay = allocateDelay;
        this.livePods = livePods;
    }

    /** Adds a replica's informer listener; it first receives every node, then every pod, already known. */
    @Override
    public void subscribe(ClusterEvents listener) {
        // on the watch thread, so that no change slips between the listing and the listener's registration
        watch.execute(() -> {
            replayTo(listener);
            listeners.add(listener);
        });
    }

    /** A pod already bound and allocated (the cluster as the informers list it after a restart), without events. */
    void createPlaced(ObservedPod pod) {
        pods.put(key(pod), pod);
    }

    /** The node object as the device plugin registered it. */
    void createNode(String name, Map<String, String> annotations, long allocatableGpus) {
        NodeObservation node = new NodeObservation(name, annotations, allocatableGpus, nextVersion());
        nodes.put(name, node);
        deliver(l -> l.nodeUpserted(node));
    }

    /** A pod created by the user (after admission), as the API server would store it. */
    void createPod(PodSpec spec) {
        ObservedPod pod = new ObservedPod(spec, "Pending", false, false, nextVersion());
        pods.put(key(spec.namespace(), spec.name()), pod);
        deliver(l -> l.podAdded(pod));
    }

    /** Every API write so far (patches, bindings, lock writes). */
    long writes() {
        return writes.get();
    }

    /** Pods the device plugin reported allocated. */
    long allocated() {
        return allocated.get();
    }

    /** Pods deleted to keep the live-pod bound. */
    long deleted() {
        return deleted.get();
    }

    /** Forgets every pod (between measured phases), without events. */
    void forgetPods() {
        pods.clear();
    }

    // ------------------------------------------------------------------ PodWriter

    @Override
    public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                Map<String, String> labels) {
        return CompletableFuture.completedFuture(patchPod(pod, annotations, labels, null));
    }

    @Override
    public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
        return CompletableFuture.completedFuture(patchPod(pod, Map.of(HamiAnnotations.BIND_PHASE, phase,
                HamiAnnotations.BIND_TIME, Long.toString(bindTimeSeconds)), Map.of(), null));
    }

    @Override
    public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
        WriteOutcome write = patchPod(pod, Map.of(), Map.of(), node);
        if (!write.ok()) {
            return CompletableFuture.completedFuture(new BindingOutcome.Failed(write));
        }
        watch.schedule(() -> allocate(pod, node), allocateDelay.toMillis(), TimeUnit.MILLISECONDS);
        return CompletableFuture.completedFuture(new BindingOutcome.Bound(false));
    }

    @Override
    public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
        ObservedPod p = pods.get(key(pod.namespace(), pod.name()));
        boolean same = p != null && (pod.uid().isEmpty() || pod.uid().equals(p.spec().uid()));
        return CompletableFuture.completedFuture(same ? Optional.of(p) : Optional.empty());
    }

    // ------------------------------------------------------------------ NodeLockPort

    @Override
    public CompletionStage<LockOutcome> lock(String node, NamespacedName pod, Duration timeout) {
        LockOutcome[] outcome = new LockOutcome[1];
        NodeObservation updated = nodes.computeIfPresent(node, (name, current) -> {
            Decoded<NodeLock> held = current.lock() == null ? null : NodeLockCodec.parse(current.lock());
            if (held != null && held.isOk() && !held.value().ownedBy(pod.namespace(), pod.name())) {
                outcome[0] = new LockOutcome.Contended("node " + node + " is locked by " + held.value().namespace()
                        + "/" + held.value().name());
                return current;
            }
            String value = NodeLockCodec.value(Instant.now(), ZoneOffset.UTC, pod.namespace(), pod.name());
            outcome[0] = new LockOutcome.Acquired(held == null ? LockOutcome.How.FREE : LockOutcome.How.ALREADY_HELD,
                    value);
            return withLock(current, value);
        });
        if (updated == null) {
            return CompletableFuture.completedFuture(new LockOutcome.Failed("nodes \"" + node + "\" not found"));
        }
        if (outcome[0] instanceof LockOutcome.Acquired) {
            writes.incrementAndGet();
            deliver(l -> l.nodeUpserted(updated));
        }
        return CompletableFuture.completedFuture(outcome[0]);
    }

    @Override
    public CompletionStage<ReleaseOutcome> release(String node, NamespacedName pod, boolean skipOwnerCheck) {
        return CompletableFuture.completedFuture(new ReleaseOutcome.Released(unlock(node, pod, skipOwnerCheck)));
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }

    // ------------------------------------------------------------------ helpers

    /** The device plugin's Allocate: bind-phase=success, then the owner-checked lock release. */
    private void allocate(PodAddress pod, String node) {
        patchPod(pod, Map.of(HamiAnnotations.BIND_PHASE, "success"), Map.of(), null);
        allocated.incrementAndGet();
        unlock(node, pod.namespacedName(), false);
        retire(pod);
    }

    /** Keeps at most {@link #livePods} allocated pods: the oldest go, as finished pods do in a cluster. */
    private void retire(PodAddress pod) {
        if (livePods <= 0) {
            return;
        }
        alive.addLast(pod);
        while (alive.size() > livePods) {
            delete(alive.pollFirst());
        }
    }

    /** The user's delete: every watch gets the pod's last state (not counted in {@link #writes}: not the gateway's). */
    private void delete(PodAddress pod) {
        String key = key(pod.namespace(), pod.name());
        ObservedPod gone = pods.get(key);
        if (gone == null || !pod.uid().isEmpty() && !pod.uid().equals(gone.spec().uid()) || !pods.remove(key, gone)) {
            return;
        }
        deleted.incrementAndGet();
        deliver(l -> l.podDeleted(gone));
    }

    private boolean unlock(String node, NamespacedName pod, boolean skipOwnerCheck) {
        boolean[] removed = new boolean[1];
        NodeObservation updated = nodes.computeIfPresent(node, (name, current) -> {
            Decoded<NodeLock> held = current.lock() == null ? null : NodeLockCodec.parse(current.lock());
            if (held == null || !(skipOwnerCheck || !held.isOk() || held.value().legacy()
                    || held.value().ownedBy(pod.namespace(), pod.name()))) {
                return current;
            }
            removed[0] = true;
            return withLock(current, null);
        });
        if (removed[0]) {
            writes.incrementAndGet();
            deliver(l -> l.nodeUpserted(updated));
        }
        return removed[0];
    }

    private NodeObservation withLock(NodeObservation node, String lock) {
        Map<String, String> annotations = new HashMap<>(node.annotations());
        if (lock == null) {
            annotations.remove(HamiAnnotations.NODE_LOCK);
        } else {
            annotations.put(HamiAnnotations.NODE_LOCK, lock);
        }
        return new NodeObservation(node.name(), annotations, node.allocatableGpus(), nextVersion());
    }

    /** A merge patch of annotations and labels, and/or the Binding ({@code nodeName} non-null). */
    private WriteOutcome patchPod(PodAddress key, Map<String, String> annotations, Map<String, String> labels,
                                  String nodeName) {
        ObservedPod updated = pods.computeIfPresent(key(key.namespace(), key.name()), (k, current) -> {
            PodSpec s = current.spec();
            if (!key.uid().isEmpty() && !key.uid().equals(s.uid())) {
                return current;
            }
            Map<String, String> a = new HashMap<>(s.annotations());
            a.putAll(annotations);
            Map<String, String> l = new HashMap<>(s.labels());
            l.putAll(labels);
            PodSpec spec = new PodSpec(s.name(), s.namespace(), s.uid(), s.schedulerName(),
                    nodeName == null ? s.nodeName() : nodeName, s.runtimeClassName(), a, l, s.initContainers(),
                    s.containers());
            return new ObservedPod(spec, current.phase(), false, false, nextVersion());
        });
        if (updated == null || (!key.uid().isEmpty() && !key.uid().equals(updated.spec().uid()))) {
            return new WriteOutcome.Refused(404, "pods \"" + key.name() + "\" not found");
        }
        writes.incrementAndGet();
        deliver(l -> l.podUpdated(updated));
        return new WriteOutcome.Written();
    }

    private void deliver(java.util.function.Consumer<ClusterEvents> event) {
        if (listeners.isEmpty() || watch.isShutdown()) {
            return;
        }
        watch.execute(() -> {
            for (ClusterEvents l : listeners) {
                try {
                    event.accept(l);
                } catch (RuntimeException e) {
                    // an informer drops a listener's exception the same way
                }
            }
        });
    }

    private String nextVersion() {
        return Long.toString(version.incrementAndGet());
    }
}
