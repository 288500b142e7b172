package io.vgpu.gateway.kube;

import io.vgpu.gateway.core.health.HandshakeRule;
import io.vgpu.gateway.core.health.HandshakeStep;
import io.vgpu.gateway.core.health.HealthVerdict;
import io.vgpu.gateway.core.health.NodeHealthMemory;
import io.vgpu.gateway.core.health.NvidiaHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.HandshakeCodec;
import io.vgpu.state.codec.PodPatchCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node health and the {@code hami.io/node-handshake} stamp (spec §7.2): runs {@link HandshakeRule} and
 * {@link NvidiaHealth} over an informer observation and writes the annotation only when something changes.
 *
 * <pre>
 *  observation ─► HandshakeRule ─┬─ Settled(verdict) ───────────────────────────────┐
 *                                └─ Stamp(v) ─► PATCH handshake=v ─► afterNodeGet(ok) ┤
 *                                                                                      ▼
 *                          NvidiaHealth(verdict, allocatable, register, memory) ─► healthy? ─ no ─► remove stamp
 *                                                                                               (if present)
 * </pre>
 *
 * <p>Writes happen at most once per change: calls for one node are serialised, and a stamp this reconciler
 * wrote is remembered until the informer shows it, so a stale observation never stamps twice. Deviation from
 * HAMi: the stamp is written without the live {@code GET node} first (a 404 answer plays the failed GET);
 * the only difference is the {@code needUpdate} flag after a failed PATCH, which the gateway does not use.
 * Call it on node upserts and periodically (HAMi: every 15 s), since a stamp expires with time alone.
 */
public final class HandshakeReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeReconciler.class);

    private final KubeApi api;
    private final Clock clock;
    private final ZoneId zone;
    private final KeyedSequencer perNode = new KeyedSequencer();
    private final Map<String, NodeHealthState> states = new ConcurrentHashMap<>();

    /**
     * @param api   the gateway's API client
     * @param clock time source
     * @param zone  the zone stamps are written and read in (HAMi: the scheduler's local zone)
     */
    public HandshakeReconciler(KubeApi api, Clock clock, ZoneId zone) {
        this.api = api;
        this.clock = clock;
        this.zone = zone;
    }

    /**
     * Checks one node and writes the handshake if needed. Never completes exceptionally.
     *
     * @return the NVIDIA health verdict: unhealthy ⇒ the node's devices must not be scheduled on
     */
    public CompletionStage<HealthVerdict> reconcile(NodeObservation node) {
        return perNode.run(node.name(), () -> reconcileNow(node));
    }

    /** Forgets a deleted node. */
    public void forget(String node) {
        states.remove(node);
    }

    private CompletionStage<HealthVerdict> reconcileNow(NodeObservation node) {
        Instant now = clock.instant();
        NodeHealthState state = states.getOrDefault(node.name(), NodeHealthState.FRESH);
        String handshake = visibleHandshake(node, state, now);
        HandshakeStep step = HandshakeRule.check(handshake, node.allocatableGpus(), now, zone);
        CompletionStage<Written> generic;
        if (step instanceof HandshakeStep.Stamp stamp) {
            generic = api.mergePatch(KubePaths.node(node.name()),
                            PodPatchCodec.annotationsPatch(Map.of(HamiAnnotations.NODE_HANDSHAKE, stamp.value())))
                    .thenApply(r -> {
                        if (!r.ok()) {
                            LOG.warn("node {}: handshake not written: {}", node.name(), r.error());
                        }
                        return new Written(stamp.afterNodeGet(r.ok()), r.ok() ? stamp.value() : null);
                    });
        } else {
            generic = CompletableFuture.completedFuture(new Written(((HandshakeStep.Settled) step).verdict(), null));
        }
        return generic.thenCompose(written -> {
            NvidiaHealth.Result result = NvidiaHealth.check(written.verdict(), node.allocatableGpus(), node.register(),
                    state.memory());
            String stamp = written.stamp() != null ? written.stamp() : state.pendingStamp(node, now);
            if (result.verdict().healthy()) {
                states.put(node.name(), new NodeHealthState(result.memory(), stamp, written.stamp() != null ? now
                        : state.stampedAt()));
                return CompletableFuture.completedFuture(result.verdict());
            }
            states.put(node.name(), new NodeHealthState(result.memory(), null, null));
            return cleanUp(node, handshake).thenApply(ignored -> result.verdict());
        });
    }

    /** HAMi's NodeCleanUp: the stamp goes (merge null), so the next check stamps the node again. */
    private CompletionStage<Void> cleanUp(NodeObservation node, String handshake) {
        if (handshake == null) {
            return CompletableFuture.completedFuture(null);
        }
        LOG.info("node {}: unhealthy (allocatable {}), removing the handshake", node.name(), node.allocatableGpus());
        return api.mergePatch(KubePaths.node(node.name()),
                PodPatchCodec.removeAnnotationPatch(HamiAnnotations.NODE_HANDSHAKE)).thenApply(r -> null);
    }

    /** The handshake as it is on the node: the observation, or our own stamp the informer has not shown yet. */
    private static String visibleHandshake(NodeObservation node, NodeHealthState state, Instant now) {
        String observed = node.handshake();
        if (HandshakeCodec.isRequesting(observed)) {
            return observed;
        }
        String pending = state.pendingStamp(node, now);
        return pending != null ? pending : observed;
    }

    /**
     * The health verdict before the NVIDIA wrapper and the stamp that was written (or null).
     */
    private record Written(HealthVerdict verdict, String stamp) {
    }

    /**
     * What is remembered per node.
     *
     * @param memory    NVIDIA health memory
     * @param stamp     the last stamp this reconciler wrote, or null
     * @param stampedAt when it was written, or null
     */
    private record NodeHealthState(NodeHealthMemory memory, String stamp, Instant stampedAt) {

        static final NodeHealthState FRESH = new NodeHealthState(NodeHealthMemory.FRESH, null, null);

        /** Our stamp while it is still valid and the node does not show a newer one. */
        String pendingStamp(NodeObservation node, Instant now) {
            if (stamp == null || stampedAt == null || !now.isBefore(stampedAt.plus(HandshakeRule.STAMP_VALIDITY))) {
                return null;
            }
            return HandshakeCodec.isRequesting(node.handshake()) ? null : stamp;
        }
    }
}
