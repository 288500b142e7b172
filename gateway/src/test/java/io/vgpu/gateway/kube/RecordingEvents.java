package io.vgpu.gateway.kube;

import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link ClusterEvents} listener that records what it is told, for assertions. */
final class RecordingEvents implements ClusterEvents {

    /**
     * One delivery.
     *
     * @param kind  the method called, e.g. {@code podAdded}
     * @param key   node name, or namespace/name of a pod or quota
     * @param value the observation delivered
     */
    record Delivery(String kind, String key, Object value) {
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    /** Every delivery so far. */
    List<Delivery> all() {
        return List.copyOf(deliveries);
    }

    /** Deliveries about one key, in order. */
    List<Delivery> about(String key) {
        return deliveries.stream().filter(d -> d.key().equals(key)).toList();
    }

    /** The kinds delivered about one key, in order. */
    List<String> kindsAbout(String key) {
        return about(key).stream().map(Delivery::kind).toList();
    }

    @Override
    public void nodeUpserted(NodeObservation node) {
        deliveries.add(new Delivery("nodeUpserted", node.name(), node));
    }

    @Override
    public void nodeDeleted(NodeObservation lastKnown) {
        deliveries.add(new Delivery("nodeDeleted", lastKnown.name(), lastKnown));
    }

    @Override
    public void podAdded(ObservedPod pod) {
        deliveries.add(new Delivery("podAdded", pod.key().toString(), pod));
    }

    @Override
    public void podUpdated(ObservedPod pod) {
        deliveries.add(new Delivery("podUpdated", pod.key().toString(), pod));
    }

    @Override
    public void podDeleted(ObservedPod lastKnown) {
        deliveries.add(new Delivery("podDeleted", lastKnown.key().toString(), lastKnown));
    }

    @Override
    public void quotaChanged(QuotaObservation previous, QuotaObservation current) {
        deliveries.add(new Delivery("quotaChanged", current.namespace() + "/" + current.name(), current));
    }

    @Override
    public void quotaDeleted(QuotaObservation lastKnown) {
        deliveries.add(new Delivery("quotaDeleted", lastKnown.namespace() + "/" + lastKnown.name(), lastKnown));
    }
}
