package io.vgpu.gateway.core.port;

import java.util.Collection;
import java.util.Optional;

/**
 * The informers' local caches, read synchronously (no I/O: a map lookup). Used where HAMi reads its
 * listers, e.g. {@code /bind} looking up the pod and the node (spec §11.1 steps 1–2), and by
 * {@code /readyz}.
 *
 * <p>Thread-safe; values are immutable snapshots; may lag the API server by the watch latency.
 */
public interface ClusterCache {

    /** The cached pod, if it is in one of the pod selections. */
    Optional<ObservedPod> pod(String namespace, String name);

    /** The cached node, if it is in the node selection. */
    Optional<NodeObservation> node(String name);

    /** Every cached node. */
    Collection<NodeObservation> nodes();

    /** Every cached pod (a copy; used to resync keys whose owner changed). */
    Collection<ObservedPod> pods();

    /** True once every informer has completed its initial list and the cache holds what it listed. */
    boolean hasSynced();
}
