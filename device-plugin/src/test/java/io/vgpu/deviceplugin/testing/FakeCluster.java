package io.vgpu.deviceplugin.testing;

import io.vgpu.deviceplugin.core.cluster.NodeView;
import io.vgpu.deviceplugin.core.pending.PendingPodRules;
import io.vgpu.deviceplugin.core.cluster.PodView;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An in-memory {@link ClusterAccess} for core tests: nodes with annotations and resourceVersions, pods
 * in list order, injectable failures, and a record of every successful pod patch and lock removal.
 * Completes stages synchronously. Thread-safe (all methods synchronized).
 */
public final class FakeCluster implements ClusterAccess {

    private final Map<String, Map<String, String>> nodes = new HashMap<>();
    private final Map<String, Long> versions = new HashMap<>();
    private final Map<String, PodView> pods = new LinkedHashMap<>();
    private final Map<String, Long> podVersions = new HashMap<>();
    private final Map<String, String> failPodPatchesOf = new HashMap<>();
    private final List<Map<String, String>> podPatches = new ArrayList<>();
    private final List<String> lockRemovals = new ArrayList<>();
    private final List<String> events = new ArrayList<>();
    private String nodeReadError;
    private int conflictsToInject;

    /** Adds (or replaces) a node with these annotations. */
    public synchronized FakeCluster node(String name, Map<String, String> annotations) {
        nodes.put(name, new HashMap<>(annotations));
        versions.merge(name, 1L, Long::sum);
        return this;
    }

    /** Adds (or replaces) a pod; list order is insertion order. Reads carry its resourceVersion. */
    public synchronized FakeCluster pod(PodView pod) {
        String key = pod.namespace() + "/" + pod.name();
        long version = podVersions.merge(key, 1L, Long::sum);
        pods.put(key, versioned(pod, version));
        return this;
    }

    /** Removes a pod (as when it is deleted). */
    public synchronized FakeCluster deletePod(String namespace, String name) {
        pods.remove(namespace + "/" + name);
        return this;
    }

    private static PodView versioned(PodView pod, long version) {
        return new PodView(pod.namespace(), pod.name(), pod.uid(), pod.phase(), pod.nodeName(), pod.annotations(),
                pod.initContainers(), pod.containers(), Long.toString(version), pod.terminating());
    }

    /** Every GET node fails with {@code message}. */
    public synchronized FakeCluster failNodeReads(String message) {
        this.nodeReadError = message;
        return this;
    }

    /** Pod patches that touch {@code annotationKey} fail with {@code message}. */
    public synchronized FakeCluster failPodPatchesOf(String annotationKey, String message) {
        failPodPatchesOf.put(annotationKey, message);
        return this;
    }

    /** The next {@code n} lock removals fail with a conflict (as if the node changed meanwhile). */
    public synchronized FakeCluster injectLockConflicts(int n) {
        this.conflictsToInject = n;
        return this;
    }

    /** Successful pod annotation patches, in call order. */
    public synchronized List<Map<String, String>> podPatches() {
        return List.copyOf(podPatches);
    }

    /** Node events, as {@code node type reason: message}, in call order. */
    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** Nodes whose lock was removed, in call order. */
    public synchronized List<String> lockRemovals() {
        return List.copyOf(lockRemovals);
    }

    /** The current annotations of a node. */
    public synchronized Map<String, String> nodeAnnotations(String name) {
        return Map.copyOf(nodes.getOrDefault(name, Map.of()));
    }

    /** The current state of a pod. */
    public synchronized Optional<PodView> currentPod(String namespace, String name) {
        return Optional.ofNullable(pods.get(namespace + "/" + name));
    }

    @Override
    public synchronized CompletionStage<Optional<NodeView>> node(String name) {
        if (nodeReadError != null) {
            return CompletableFuture.failedFuture(new IllegalStateException(nodeReadError));
        }
        Map<String, String> annotations = nodes.get(name);
        return CompletableFuture.completedFuture(annotations == null ? Optional.empty()
                : Optional.of(new NodeView(name, String.valueOf(versions.get(name)), annotations)));
    }

    @Override
    public synchronized CompletionStage<Optional<PodView>> pod(String namespace, String name) {
        return CompletableFuture.completedFuture(Optional.ofNullable(pods.get(namespace + "/" + name)));
    }

    @Override
    public synchronized CompletionStage<List<PodView>> podsOnNode(String node) {
        return CompletableFuture.completedFuture(pods.values().stream().filter(p -> node.equals(p.nodeName())).toList());
    }

    @Override
    public synchronized CompletionStage<Void> patchPodAnnotations(String namespace, String name, Map<String, String> annotations) {
        for (String key : annotations.keySet()) {
            if (failPodPatchesOf.containsKey(key)) {
                return CompletableFuture.failedFuture(new IllegalStateException(failPodPatchesOf.get(key)));
            }
        }
        PodView pod = pods.get(namespace + "/" + name);
        if (pod == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(PendingPodRules.podNotFound(name)));
        }
        Map<String, String> merged = new HashMap<>(pod.annotations());
        merged.putAll(annotations);
        long version = podVersions.merge(namespace + "/" + name, 1L, Long::sum);
        pods.put(namespace + "/" + name, versioned(pod.withAnnotations(merged), version));
        podPatches.add(Map.copyOf(annotations));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletionStage<Void> patchPodAnnotations(String namespace, String name,
                                                                  Map<String, String> annotations, String resourceVersion) {
        PodView pod = pods.get(namespace + "/" + name);
        if (pod != null && !pod.resourceVersion().equals(resourceVersion)) {
            return CompletableFuture.failedFuture(new IllegalStateException("Operation cannot be fulfilled on pods \""
                    + name + "\": the object has been modified; please apply your changes to the latest version"));
        }
        return patchPodAnnotations(namespace, name, annotations);
    }

    @Override
    public synchronized CompletionStage<Void> removeNodeLock(String node, String resourceVersion) {
        Map<String, String> annotations = nodes.get(node);
        if (annotations == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(PendingPodRules.nodeNotFound(node)));
        }
        if (conflictsToInject > 0 || !resourceVersion.equals(String.valueOf(versions.get(node)))) {
            conflictsToInject = Math.max(0, conflictsToInject - 1);
            versions.merge(node, 1L, Long::sum);
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "Operation cannot be fulfilled on nodes \"" + node + "\": the object has been modified"));
        }
        annotations.remove(HamiAnnotations.NODE_LOCK);
        versions.merge(node, 1L, Long::sum);
        lockRemovals.add(node);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletionStage<Void> patchNodeAnnotations(String node, Map<String, String> annotations) {
        Map<String, String> current = nodes.get(node);
        if (current == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(PendingPodRules.nodeNotFound(node)));
        }
        current.putAll(annotations);
        versions.merge(node, 1L, Long::sum);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletionStage<Void> recordNodeEvent(String node, String type, String reason, String message) {
        events.add(node + " " + type + " " + reason + ": " + message);
        return CompletableFuture.completedFuture(null);
    }
}
