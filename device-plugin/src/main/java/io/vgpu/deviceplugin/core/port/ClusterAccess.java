package io.vgpu.deviceplugin.core.port;

import io.vgpu.deviceplugin.core.cluster.NodeView;
import io.vgpu.deviceplugin.core.cluster.PodView;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The API-server operations of the device plugin. Every call is a live request (never an informer
 * cache: the node lock and the to-allocate annotation change between calls).
 *
 * <p>Contract: methods never block the caller; they return a stage completed on some client thread.
 * A stage fails only for an unexpected API error (connection, timeout, 5xx, 409 on a guarded patch);
 * the failure's message is the client's text. Implementations put a timeout on every request.
 */
public interface ClusterAccess {

    /** GET node {@code name}; empty when it does not exist. */
    CompletionStage<Optional<NodeView>> node(String name);

    /** GET pod {@code namespace/name}; empty when it does not exist. */
    CompletionStage<Optional<PodView>> pod(String namespace, String name);

    /** LIST pods with {@code spec.nodeName=<node>} in every namespace, in API list order. */
    CompletionStage<List<PodView>> podsOnNode(String node);

    /**
     * JSON merge patch of pod annotations ({@code {"metadata":{"annotations":{...}}}}); fails when
     * the pod does not exist.
     */
    CompletionStage<Void> patchPodAnnotations(String namespace, String name, Map<String, String> annotations);

    /**
     * The same merge patch guarded by {@code resourceVersion}
     * ({@code {"metadata":{"annotations":{...},"resourceVersion":"<rv>"}}}); fails with the API's
     * conflict when the pod changed since that version.
     */
    CompletionStage<Void> patchPodAnnotations(String namespace, String name, Map<String, String> annotations,
                                              String resourceVersion);

    /**
     * Removes {@code hami.io/mutex.lock} with a merge patch guarded by {@code resourceVersion}
     * ({@code {"metadata":{"annotations":{"hami.io/mutex.lock":null},"resourceVersion":"<rv>"}}}); fails
     * with the API's conflict when the node changed since that version.
     */
    CompletionStage<Void> removeNodeLock(String node, String resourceVersion);

    /** JSON merge patch of node annotations (no resourceVersion: last writer wins, as HAMi does). */
    CompletionStage<Void> patchNodeAnnotations(String node, Map<String, String> annotations);

    /**
     * Creates a core/v1 Event about Node {@code node} (in namespace {@code default}, as events about
     * cluster-scoped objects go), e.g. {@code Warning AsymmetricGPUP2PLink}.
     *
     * @param type    {@code Normal} or {@code Warning}
     * @param reason  a CamelCase reason
     * @param message for operators
     */
    CompletionStage<Void> recordNodeEvent(String node, String type, String reason, String message);
}
