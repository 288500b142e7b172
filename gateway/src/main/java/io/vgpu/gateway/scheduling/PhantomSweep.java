package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodCharge;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The fast net for a phantom Bound charge: one left on a node its pod is no longer on, which no event will release.
 * A replica that confirmed a pod (Reserved → Bound) and was killed before its pod-index write leaves the pod
 * unindexed: a re-filter onto another node releases nothing on the first, and the pod's delete releases only the node
 * its annotations name (docs/reliability.md, p-5175). The index and the charge live on different keys, so no single
 * step closes that window; the full resync ({@link IngestRepair}) repairs it, past the chaos checker's 15 s bound for a
 * move. This sweep repairs it within two of its ticks and one live read:
 * <pre>
 *   each tick, over the owned keys' local copies (no network):
 *     Bound charge of pod P on N ── the cache lacks P (or holds another UID) ──► sighting (N, P)
 *                                └─ the cache has P annotated for M ≠ N ───────► sighting (N, P)
 *   a sighting of the previous tick too ── the cache names M: live read; P names L ≠ N ─► release N
 *                                        └─ the cache lacks P: the API says P is gone ──► release N
 * </pre>
 * Two sightings: a pod bound a moment ago whose informer event has not arrived yet costs no live read. Only the last
 * tick's sightings are kept, less those read (a charge the live read keeps waits two ticks for its next read). The
 * rules are {@link ChargeMoves}'s: a charge on the node the live pod names is never released. A tick costs one cache
 * lookup per owned Bound charge, never a pass over every cached pod.
 */
final class PhantomSweep {

    private static final Logger LOG = LoggerFactory.getLogger(PhantomSweep.class);

    private final ClusterState state;
    private final ChargeMoves moves;
    private final ClusterCache cache;
    /** A tick's reads are in flight: the next tick skips. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** The previous tick's sightings not read yet; touched only by the tick that holds {@link #sweeping}. */
    private Set<Sighting> previous = Set.of();

    PhantomSweep(ClusterState state, ChargeMoves moves, ClusterCache cache) {
        this.state = state;
        this.moves = moves;
        this.cache = cache;
    }

    /**
     * One tick (see the class comment). Returns at once: completed when the informers have not listed or the previous
     * tick is still in flight; otherwise when the live reads and releases of this tick are done.
     */
    CompletionStage<Void> sweep() {
        if (!cache.hasSynced() || !sweeping.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletionStage<Void> swept;
        try {
            swept = repairSeenTwice();
        } catch (RuntimeException e) {
            swept = CompletableFuture.failedFuture(e);
        }
        return swept.whenComplete((v, e) -> sweeping.set(false));
    }

    private CompletionStage<Void> repairSeenTwice() {
        Set<String> names = new HashSet<>();
        state.nodes().forEach(v -> names.add(v.name()));
        cache.nodes().forEach(n -> names.add(n.name()));
        Set<Sighting> next = new HashSet<>();
        List<CompletableFuture<?>> repairs = new ArrayList<>();
        for (String node : names) {
            NodeState owned = state.ownsNode(node) ? state.nodeState(node) : null;
            if (owned == null) {
                continue;
            }
            owned.charges().forEach((uid, charge) -> {
                if (!(charge instanceof PodCharge.Bound)) {
                    return; // reservations expire on their own
                }
                ObservedPod cached = cache.pod(charge.podNamespace(), charge.podName())
                        .filter(p -> uid.equals(p.spec().uid())).orElse(null);
                String cachedNode = cached == null ? null : Recorded.chargedNode(cached.spec());
                if (cached != null && (cachedNode == null || cachedNode.equals(node))) {
                    return; // accounted for, or annotated for no node yet (its filter's patch not seen yet)
                }
                Sighting sighting = new Sighting(node, uid);
                if (previous.contains(sighting)) {
                    PodAddress pod = new PodAddress(charge.podNamespace(), charge.podName(), uid);
                    repairs.add(repair(node, pod, cachedNode).toCompletableFuture());
                } else {
                    next.add(sighting);
                }
            });
        }
        previous = next;
        return CompletableFuture.allOf(repairs.toArray(CompletableFuture[]::new));
    }

    /** A charge seen twice: the live rules of {@link ChargeMoves}; {@code cachedNode} null when the cache lacks it. */
    private CompletionStage<Boolean> repair(String node, PodAddress pod, String cachedNode) {
        CompletionStage<Boolean> released = cachedNode == null ? moves.releaseIfGone(node, pod)
                : moves.releaseIfMoved(node, pod);
        return released.whenComplete((r, e) -> {
            if (Boolean.TRUE.equals(r)) {
                LOG.info("pod {}: phantom charge on {} released by the sweep (seen in two ticks; the cache {})", pod,
                        node, cachedNode == null ? "lacks the pod" : "names " + cachedNode);
            }
        });
    }

    /** A Bound charge no cached pod accounts for: the same node and pod UID in two ticks running is a candidate. */
    private record Sighting(String node, String uid) {
    }
}
