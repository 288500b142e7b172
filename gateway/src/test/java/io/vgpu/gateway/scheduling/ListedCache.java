package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** An informer cache that holds fixed lists of nodes and pods; synced unless told otherwise. */
final class ListedCache implements ClusterCache {

    private final List<NodeObservation> nodeList;
    private final List<ObservedPod> podList;
    private volatile boolean synced = true;
    private final AtomicInteger syncChecks = new AtomicInteger();

    ListedCache(List<NodeObservation> nodeList, List<ObservedPod> podList) {
        this.nodeList = List.copyOf(nodeList);
        this.podList = List.copyOf(podList);
    }

    /** Whether the informers have listed. */
    void synced(boolean value) {
        synced = value;
    }

    /** How often a caller has asked {@link #hasSynced}: a waiter that asked twice has come back once. */
    int syncChecks() {
        return syncChecks.get();
    }

    @Override
    public Optional<ObservedPod> pod(String namespace, String name) {
        return podList.stream().filter(p -> p.spec().name().equals(name)).findFirst();
    }

    @Override
    public Optional<NodeObservation> node(String name) {
        return nodeList.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    @Override
    public Collection<NodeObservation> nodes() {
        return nodeList;
    }

    @Override
    public Collection<ObservedPod> pods() {
        return podList;
    }

    @Override
    public boolean hasSynced() {
        syncChecks.incrementAndGet();
        return synced;
    }
}
