package io.vgpu.deviceplugin.core.monitor;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The monitor's view of the Kubernetes pods (a port: the implementation watches the API server,
 * e.g. with a fabric8 informer; {@link InMemoryPodDirectory} serves tests and clusters without one).
 *
 * <p>Both lookups answer from a <b>complete</b> view: an implementation whose cache has not
 * synced yet must fail the stage rather than return a partial list, because the monitor deletes
 * the container directories of pods it does not find (after a grace period), exactly as HAMi's
 * monitor does after waiting for its informer to sync.
 *
 * <p>Threading: the stages may complete on any thread; callers run the monitor's file and region
 * work on worker threads and wait with a timeout. Implementations must be thread-safe.
 */
public interface PodDirectory {

    /**
     * Pods whose {@code spec.nodeName} is {@code node} (HAMi's lister: informer with field selector
     * {@code spec.nodeName=<node>}). Decides which container directories are still in use.
     */
    CompletionStage<List<MonitoredPod>> podsOnNode(String node);

    /**
     * Pods labelled {@code hami.io/vgpu-node=<node>} ({@link MonitoredPod#ASSIGNED_NODE_LABEL}), on
     * any node (HAMi's metrics lister: a cluster-wide informer filtered by that label). Only these
     * pods' containers get per-container and MIG metrics.
     */
    CompletionStage<List<MonitoredPod>> podsAssignedTo(String node);
}
