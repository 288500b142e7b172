package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * The monitor's {@link PodDirectory} over two fabric8 informer caches of one node, so that a scan or a
 * scrape costs no API call:
 * <ul>
 *   <li>pods with field {@code spec.nodeName=<node>} (HAMi's lister) for {@link #podsOnNode};</li>
 *   <li>pods with label {@code hami.io/vgpu-node=<node>}, in every namespace and on any node, for
 *       {@link #podsAssignedTo}. HAMi's monitor watches every pod of the cluster and filters by that
 *       label itself; selecting on the server gives the same pods for a fraction of the traffic.</li>
 * </ul>
 *
 * <pre>
 *  start ─► listing (lookups FAIL: "not synced") ─► synced (lookups answer from the cache)
 *                                                     └─ watch errors: fabric8 relists, cache kept
 *  close ─► stopped (lookups FAIL: "stopped")
 * </pre>
 *
 * A lookup never answers from a cache that has not listed yet: the monitor deletes the container
 * directories of pods it does not find, so a partial answer would delete live containers' regions.
 * Lookups are non-blocking (in-memory) and return already completed stages; the selection rules are
 * applied again on the cached pods ({@link MonitoredPod#scheduledOn}, {@link MonitoredPod#assignedTo}),
 * so an API server that ignores a selector cannot widen the answer. Thread-safe.
 */
public final class KubePodDirectory implements PodDirectory, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubePodDirectory.class);

    private final String node;
    private final SharedIndexInformer<Pod> onNode;
    private final SharedIndexInformer<Pod> assigned;
    private final CompletableFuture<Void> synced;

    private KubePodDirectory(String node, SharedIndexInformer<Pod> onNode, SharedIndexInformer<Pod> assigned) {
        this.node = node;
        this.onNode = onNode;
        this.assigned = assigned;
        this.synced = CompletableFuture.allOf(onNode.start().toCompletableFuture(), assigned.start().toCompletableFuture());
        synced.whenComplete((v, error) -> {
            if (error == null) {
                LOG.info("pod caches of node {} synced: {} pod(s) on the node, {} assigned to it", node,
                        onNode.getStore().list().size(), assigned.getStore().list().size());
            }
        });
    }

    /**
     * Starts both informers and returns at once (no I/O on the calling thread). While the API server
     * cannot be reached the informers keep retrying (logged); lookups fail until both have listed.
     *
     * @param client the fabric8 client (not closed by {@link #close()})
     * @param node   this node's name
     */
    public static KubePodDirectory start(KubernetesClient client, String node) {
        Objects.requireNonNull(client, "client");
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("the pod directory needs the node name");
        }
        return new KubePodDirectory(node,
                retrying("pods on node " + node, client.pods().inAnyNamespace()
                        .withField("spec.nodeName", node).runnableInformer(0)),
                retrying("pods labelled " + MonitoredPod.ASSIGNED_NODE_LABEL + "=" + node, client.pods().inAnyNamespace()
                        .withLabel(MonitoredPod.ASSIGNED_NODE_LABEL, node).runnableInformer(0)));
    }

    /** The informer, set to log a failure and keep retrying (list and watch again) instead of stopping. */
    static <T> SharedIndexInformer<T> retrying(String what, SharedIndexInformer<T> informer) {
        return informer.exceptionHandler((started, failure) -> {
            LOG.warn("{} informer: {} (retrying)", what, failure.toString());
            return true;
        });
    }

    /** Completes once both caches have listed; never fails while the informers retry. */
    public CompletionStage<Void> synced() {
        return synced.minimalCompletionStage();
    }

    /** Both caches have listed and neither informer is stopped. */
    public boolean hasSynced() {
        return usable(onNode) && usable(assigned);
    }

    @Override
    public CompletionStage<List<MonitoredPod>> podsOnNode(String name) {
        return select(onNode, name, "pods on node " + name, pod -> pod.scheduledOn(name));
    }

    @Override
    public CompletionStage<List<MonitoredPod>> podsAssignedTo(String name) {
        return select(assigned, name, "pods labelled " + MonitoredPod.ASSIGNED_NODE_LABEL + "=" + name,
                pod -> pod.assignedTo(name));
    }

    private CompletionStage<List<MonitoredPod>> select(SharedIndexInformer<Pod> informer, String name, String what,
                                                       Predicate<MonitoredPod> rule) {
        if (!node.equals(name)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "this pod directory watches node " + node + ", not " + name));
        }
        if (!informer.isRunning()) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "the informer of " + what + " is stopped"));
        }
        if (!informer.hasSynced()) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "the informer of " + what + " has not synced yet"));
        }
        try {
            return CompletableFuture.completedFuture(informer.getStore().list().stream()
                    .map(PodViews::monitored)
                    .filter(rule)
                    .toList());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static boolean usable(SharedIndexInformer<Pod> informer) {
        return informer.isRunning() && informer.hasSynced();
    }

    /** Stops both informers; later lookups fail. Idempotent. */
    @Override
    public void close() {
        onNode.stop();
        assigned.stop();
    }

    @Override
    public String toString() {
        return "KubePodDirectory[" + node + "]";
    }
}
