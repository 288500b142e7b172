package io.vgpu.gateway.core.port;

import java.util.List;

/**
 * What the informers deliver: the listener the gateway wires to the store, the pod tracker and the quota
 * book. Implemented by the consumers; called by the Kubernetes adapter.
 *
 * <p>Contract for callers (the informer adapter):
 * <ul>
 *   <li>Methods are called one at a time (never concurrently), in the order the watches delivered them
 *       per object. Different objects may interleave arbitrarily.</li>
 *   <li>Deliveries are at-least-once: after a re-list the same object may be delivered again with the same
 *       resourceVersion. Listeners must be idempotent; resourceVersions are opaque (equality only).</li>
 *   <li>Pods come from several server-side selections (label {@code hami.io/vgpu-node} exists, or
 *       {@code spec.schedulerName} one of the configured names); a pod is reported deleted only when it
 *       left every selection.</li>
 * </ul>
 * <p>Contract for implementations: return quickly and never block (hand slow work to async calls); never
 * throw (an exception is logged and dropped by the caller).
 */
public interface ClusterEvents {

    /** A node was added or changed. */
    default void nodeUpserted(NodeObservation node) {
    }

    /**
     * A cached node delivered again by a periodic net ({@code IngestRepair}), not by a watch: nothing need have
     * changed. Listeners that skip work for a node whose stored copy already matches must do it here anyway, since
     * that copy may be wrong (a write lost in flight, a copy that lags the store). By default, as
     * {@link #nodeUpserted}.
     */
    default void nodeRedelivered(NodeObservation node) {
        nodeUpserted(node);
    }

    /** A node was deleted (or left the node label selection). {@code lastKnown} is the last observation. */
    default void nodeDeleted(NodeObservation lastKnown) {
    }

    /** A pod entered the selection (informer add). */
    default void podAdded(ObservedPod pod) {
    }

    /** A pod already in the selection changed (informer update). */
    default void podUpdated(ObservedPod pod) {
    }

    /** A pod was deleted or left every selection. {@code lastKnown} is its last observation. */
    default void podDeleted(ObservedPod lastKnown) {
    }

    /**
     * A ResourceQuota was added ({@code previous == null}) or changed. Apply it atomically: limits present
     * in {@code previous} but not in {@code current} are cleared.
     */
    default void quotaChanged(QuotaObservation previous, QuotaObservation current) {
    }

    /** A ResourceQuota was deleted: clear its limits. */
    default void quotaDeleted(QuotaObservation lastKnown) {
    }

    /** Delivers every event to each listener in turn, in the given order. */
    static ClusterEvents fanOut(List<ClusterEvents> listeners) {
        List<ClusterEvents> all = List.copyOf(listeners);
        return new ClusterEvents() {
            @Override
            public void nodeUpserted(NodeObservation node) {
                all.forEach(l -> l.nodeUpserted(node));
            }

            @Override
            public void nodeRedelivered(NodeObservation node) {
                all.forEach(l -> l.nodeRedelivered(node));
            }

            @Override
            public void nodeDeleted(NodeObservation lastKnown) {
                all.forEach(l -> l.nodeDeleted(lastKnown));
            }

            @Override
            public void podAdded(ObservedPod pod) {
                all.forEach(l -> l.podAdded(pod));
            }

            @Override
            public void podUpdated(ObservedPod pod) {
                all.forEach(l -> l.podUpdated(pod));
            }

            @Override
            public void podDeleted(ObservedPod lastKnown) {
                all.forEach(l -> l.podDeleted(lastKnown));
            }

            @Override
            public void quotaChanged(QuotaObservation previous, QuotaObservation current) {
                all.forEach(l -> l.quotaChanged(previous, current));
            }

            @Override
            public void quotaDeleted(QuotaObservation lastKnown) {
                all.forEach(l -> l.quotaDeleted(lastKnown));
            }
        };
    }
}
