package io.vgpu.deviceplugin.core.pending;
import io.vgpu.deviceplugin.core.outcome.Stages;
import io.vgpu.deviceplugin.core.cluster.NodeView;

import io.vgpu.deviceplugin.core.port.ClusterAccess;
import io.vgpu.state.codec.HamiAnnotations;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Releases the node lock of a pod whose allocation finished, owner-checked, the way HAMi's plugin
 * does (spec §4.2):
 *
 * <pre>
 *  attempt n (1..attempts):  GET node ─ missing ──────────────────────────► Failed
 *                                     ─ error ─────────────────────────────► retry
 *                            decide ─── NOT_LOCKED | NOT_OWNER ─────────────► Left
 *                                   └── REMOVE ─► PATCH null @resourceVersion ─ ok ► Removed
 *                                                                           └ error ► retry
 *  retry: wait backoff·2^(n-1), next attempt; none left ─► Failed
 * </pre>
 *
 * Each attempt re-reads the lock, so a lock re-stamped by the same pod is still removed and one taken
 * over by another pod in between is left alone. Idempotent; never fails its stage. Thread-safe.
 */
public final class NodeLockReleaser {

    /** HAMi's retry budget: 5 steps. */
    public static final int DEFAULT_ATTEMPTS = 5;
    /** HAMi's first backoff: 100 ms, doubled each step. */
    public static final Duration DEFAULT_BACKOFF = Duration.ofMillis(100);

    private final ClusterAccess cluster;
    private final int attempts;
    private final Duration backoff;

    /**
     * @param attempts how many read-and-remove attempts (at least 1)
     * @param backoff  the wait before the second attempt, doubled for each further one
     */
    public NodeLockReleaser(ClusterAccess cluster, int attempts, Duration backoff) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        this.attempts = attempts;
        this.backoff = Objects.requireNonNull(backoff, "backoff");
    }

    /** HAMi's defaults. */
    public NodeLockReleaser(ClusterAccess cluster) {
        this(cluster, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF);
    }

    /** Releases {@code releaser}'s lock on {@code node} (owner-checked, as the plugin always does). */
    public CompletionStage<LockReleaseResult> release(String node, PodRef releaser) {
        return release(node, releaser, false);
    }

    /**
     * Releases the lock on {@code node}; with {@code skipOwnerCheck} whoever holds it (HAMi's forced
     * release, used by schedulers for expired or dangling locks, never by the plugin's Allocate path).
     */
    public CompletionStage<LockReleaseResult> release(String node, PodRef releaser, boolean skipOwnerCheck) {
        return attempt(node, releaser, skipOwnerCheck, 1, "");
    }

    private CompletionStage<LockReleaseResult> attempt(String node, PodRef releaser, boolean skip, int n, String lastError) {
        if (n > attempts) {
            return CompletableFuture.completedFuture(new LockReleaseResult.Failed(
                    "failed to release node lock of " + releaser + " on node " + node + " after " + attempts
                            + " attempts: " + lastError));
        }
        return Stages.fold(Stages.call(() -> cluster.node(node)),
                found -> found.map(view -> decide(view, releaser, skip, n))
                        .orElseGet(() -> done(new LockReleaseResult.Failed(PendingPodRules.nodeNotFound(node)))),
                error -> retry(node, releaser, skip, n, error));
    }

    private CompletionStage<LockReleaseResult> decide(NodeView view, PodRef releaser, boolean skip, int n) {
        LockRelease.Decision decision = LockRelease.decide(view.annotations().get(HamiAnnotations.NODE_LOCK), releaser, skip);
        if (decision != LockRelease.Decision.REMOVE) {
            return done(new LockReleaseResult.Left(decision));
        }
        return Stages.fold(Stages.call(() -> cluster.removeNodeLock(view.name(), view.resourceVersion())),
                ok -> done(new LockReleaseResult.Removed()),
                error -> retry(view.name(), releaser, skip, n, error));
    }

    private CompletionStage<LockReleaseResult> retry(String node, PodRef releaser, boolean skip, int n, String error) {
        if (n >= attempts) {
            return attempt(node, releaser, skip, n + 1, error);
        }
        long delay = backoff.toMillis() << (n - 1);
        return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS))
                .thenCompose(ignored -> attempt(node, releaser, skip, n + 1, error));
    }

    private static CompletionStage<LockReleaseResult> done(LockReleaseResult result) {
        return CompletableFuture.completedFuture(result);
    }
}
