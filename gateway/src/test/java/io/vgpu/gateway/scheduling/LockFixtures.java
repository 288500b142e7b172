package io.vgpu.gateway.scheduling;

import io.vertx.core.Vertx;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.port.LockOutcome;
import io.vgpu.gateway.core.port.NodeLockPort;
import io.vgpu.gateway.core.port.ReleaseOutcome;
import io.vgpu.state.model.ClusterState;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@link NodeLocks} for the scheduling tests. */
final class LockFixtures {

    private LockFixtures() {
    }

    /**
     * Node locks that only follow node events and sweep ({@link NodeLocks#observed}, {@link NodeLocks#sweep}): what
     * ingest needs. Acquiring through them fails (no Vert.x for the waits, no annotation lock).
     */
    static NodeLocks observing(ClusterState state, Clock clock) {
        return new NodeLocks(null, state, annotationLock(List.of()), SchedulingConfig.DEFAULTS, clock,
                LockWaits.NONE);
    }

    /** Node locks whose annotation lock is always free; the nodes it locks are added to {@code locked}. */
    static NodeLocks free(Vertx vertx, ClusterState state, Clock clock, List<String> locked) {
        return free(vertx, state, clock, locked, SchedulingConfig.DEFAULTS);
    }

    /** {@link #free(Vertx, ClusterState, Clock, List)} with the given waits and timeouts. */
    static NodeLocks free(Vertx vertx, ClusterState state, Clock clock, List<String> locked, SchedulingConfig config) {
        return new NodeLocks(vertx, state, annotationLock(locked), config, clock, LockWaits.NONE);
    }

    private static NodeLockPort annotationLock(List<String> locked) {
        return new NodeLockPort() {
            @Override
            public CompletionStage<LockOutcome> lock(String node, NamespacedName pod, Duration timeout) {
                locked.add(node);
                return CompletableFuture.completedFuture(new LockOutcome.Acquired(LockOutcome.How.FREE, "t,ns,p"));
            }

            @Override
            public CompletionStage<ReleaseOutcome> release(String node, NamespacedName pod, boolean skipOwnerCheck) {
                return CompletableFuture.completedFuture(new ReleaseOutcome.Released(true));
            }
        };
    }
}
