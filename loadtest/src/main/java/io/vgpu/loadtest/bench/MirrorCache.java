package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The informer cache both API stand-ins read from ({@link ClusterCache}): nodes by name and pods by
 * {@code namespace/name}, in concurrent maps. The {@link FastApiSink} holds the objects themselves; a
 * {@link RemoteSink} holds the mirror its watch stream fills. Subclasses write the maps; the reads here are the same
 * for both.
 */
abstract class MirrorCache implements ClusterCache {

    /** Nodes by name. */
    final Map<String, NodeObservation> nodes = new ConcurrentHashMap<>();
    /** Pods by {@link #key}. */
    final Map<String, ObservedPod> pods = new ConcurrentHashMap<>();

    /** Hands every known node, then every known pod, to a new listener (an informer's initial list). */
    final void replayTo(ClusterEvents listener) {
        nodes.values().forEach(listener::nodeUpserted);
        pods.values().forEach(listener::podAdded);
    }

    @Override
    public final Optional<ObservedPod> pod(String namespace, String name) {
        return Optional.ofNullable(pods.get(key(namespace, name)));
    }

    @Override
    public final Optional<NodeObservation> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    @Override
    public final Collection<NodeObservation> nodes() {
        return List.copyOf(nodes.values());
    }

    @Override
    public final Collection<ObservedPod> pods() {
        return List.copyOf(pods.values());
    }

    /** Always: the stand-ins answer from their maps at once, as informers do once listed. */
    @Override
    public final boolean hasSynced() {
        return true;
    }

    /** A pod's key in {@link #pods}. */
    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    static String key(ObservedPod pod) {
        return key(pod.spec().namespace(), pod.spec().name());
    }
}
