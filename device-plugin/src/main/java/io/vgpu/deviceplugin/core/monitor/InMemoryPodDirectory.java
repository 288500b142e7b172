package io.vgpu.deviceplugin.core.monitor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * A {@link PodDirectory} over pods held in memory (tests, and nodes run without an API server).
 * Applies the same selection rules as the real lookups ({@link MonitoredPod#scheduledOn},
 * {@link MonitoredPod#assignedTo}); results are in insertion order. Always "synced".
 * Thread-safe; the stages are already complete.
 */
public final class InMemoryPodDirectory implements PodDirectory {

    private final Map<String, MonitoredPod> pods = new LinkedHashMap<>();
    private RuntimeException failure;

    /** Adds the pod, or replaces the one with the same uid (keeping its position). */
    public synchronized InMemoryPodDirectory put(MonitoredPod pod) {
        pods.put(pod.uid(), pod);
        return this;
    }

    /** Forgets the pod with {@code uid} (it was deleted). */
    public synchronized void remove(String uid) {
        pods.remove(uid);
    }

    /** Makes every lookup fail with {@code error} (an unreachable API server); {@code null} heals. */
    public synchronized void failWith(RuntimeException error) {
        failure = error;
    }

    @Override
    public CompletionStage<List<MonitoredPod>> podsOnNode(String node) {
        return select(pod -> pod.scheduledOn(node));
    }

    @Override
    public CompletionStage<List<MonitoredPod>> podsAssignedTo(String node) {
        return select(pod -> pod.assignedTo(node));
    }

    private synchronized CompletionStage<List<MonitoredPod>> select(Predicate<MonitoredPod> rule) {
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        List<MonitoredPod> selected = new ArrayList<>();
        for (MonitoredPod pod : pods.values()) {
            if (rule.test(pod)) {
                selected.add(pod);
            }
        }
        return CompletableFuture.completedFuture(List.copyOf(selected));
    }
}
