package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.LiveRead;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One charge per pod UID (HAMi's scheduler keeps one entry per pod UID): what informer ingest records when it sees a
 * pod bound on a node, and what it releases when the pod's {@code hami.io/vgpu-node} moved (a failed Binding followed
 * by a re-filter, or any later update of the annotation). The pod index ({@link ClusterState#podNode}) says where the
 * pod's charge was; one live read of the pod says where it is now:
 * <pre>
 *   bound on N, the local view has it Bound on N already ──────────────► nothing to record
 *   otherwise: pod index ── N, or empty and spec.nodeName = N ─────────► record N
 *                        ├─ empty, not bound to N: live read, names L ─ L = N, unreadable ─► record N
 *                        │                                            └─ other, none, gone ──► record nothing
 *                        └─ P ≠ N: live read, the pod names L ── L = N ─► record N, then release P
 *                                                             ├─ L = P ─► record nothing (a late observation)
 *                                                             ├─ other ─► record nothing, release P
 *                                                             ├─ gone ──► record nothing, release P
 *                                                             └─ unreadable ─► record N (as observed)
 * </pre>
 * Informer events of one pod reach the owners of its old and new node at different times (the owners' watches lag
 * differently), so an observation may be older than what the shared state already holds; the live read orders them.
 * An empty index is no proof of a first observation either: a pod filtered away from N, bound elsewhere and deleted
 * there has had its entry removed, and a late observation of its version annotated for N would charge N for a pod
 * nobody will delete there again (its delete releases the node it was last annotated for). So only an observation
 * whose Binding landed on N ({@code spec.nodeName} = N, which never changes) is recorded unread; one of a bind in
 * progress ({@code bind-phase} alone) is read live first. A re-list after a restart reads only such pods.
 * A charge is released only on a node the live pod no longer names: such a node holds either what an older
 * placement left, or a reservation whose filter has not annotated the pod yet, which its bind re-checks under the
 * capacity rule. A charge on the node the live pod names is never released here.
 *
 * <p>{@link #releaseVanished} applies the same rule to a node's Bound charges during a resync: a charge whose pod the
 * cache names elsewhere goes through the live read above ({@link #releaseIfMoved}); one whose pod the cache lacks is
 * released when the API server says the pod is gone ({@link #releaseIfGone}). {@link PhantomSweep} applies the same
 * two, per charge, between resyncs.
 *
 * <p>Moves are rare: a bound pod's normal life is recorded without the lookup (its bind's confirmation made it Bound
 * before the informer shows the bind), so the lookup and the live read cost nothing in the common case.
 */
final class ChargeMoves {

    private static final Logger LOG = LoggerFactory.getLogger(ChargeMoves.class);

    private final ClusterState state;
    private final PodWriter pods;
    private final StoredReads stored;

    /** @param stored {@link #releaseVanished}'s reads of the key, shared with the resync's other reads */
    ChargeMoves(ClusterState state, PodWriter pods, StoredReads stored) {
        this.state = state;
        this.pods = pods;
        this.stored = stored;
    }

    /**
     * Records {@code pod} observed bound on {@code node} with {@code allocation}, moving its charge (see above).
     *
     * @param bindingLanded the observation shows the pod's Binding to {@code node} ({@code spec.nodeName}), not only
     *                      its {@code bind-phase}
     * @return true when the shared state changed
     */
    CompletionStage<Boolean> recordBound(String node, PodRef pod, PodAllocation allocation, PodAddress key,
                                         boolean bindingLanded) {
        if (boundHereAlready(node, pod.uid(), allocation)) {
            // nothing to record; and when the local view lags a release (a filter moved the pod meanwhile), writing
            // would re-charge the old node: what released it is newer than this observation (the periodic resync
            // re-charges what is missing and still bound here)
            return CompletableFuture.completedFuture(false);
        }
        return state.podNode(pod.uid()).thenCompose(previous -> {
            if (previous.isPresent() && !previous.get().equals(node)) {
                return moved(node, previous.get(), pod, allocation, key);
            }
            return previous.isPresent() || bindingLanded ? charge(node, pod, allocation, key)
                    : unindexed(node, pod, allocation, key);
        });
    }

    /**
     * No pod index entry, and the observation shows a bind in progress on {@code node}, not a Binding: the first
     * observation of that bind (recorded), or a late one of a pod released meanwhile (recorded nowhere). The live pod
     * tells them apart; a pod that could not be read is recorded as observed.
     */
    private CompletionStage<Boolean> unindexed(String node, PodRef pod, PodAllocation allocation, PodAddress key) {
        return pods.readLive(key).thenCompose(read -> {
            if (read instanceof LiveRead.Gone) {
                return CompletableFuture.completedFuture(false);
            }
            if (read instanceof LiveRead.Unread) {
                return charge(node, pod, allocation, key);
            }
            Optional<String> now = chargedNode(((LiveRead.Found) read).pod());
            if (now.isPresent() && now.get().equals(node)) {
                return charge(node, pod, allocation, key);
            }
            LOG.info("pod {}: a late observation on {} not recorded (it is on {} now)", key, node,
                    now.orElse("no node"));
            return CompletableFuture.completedFuture(false);
        });
    }

    /**
     * The pod index names {@code previous}, the observation {@code node}: one live read orders them. A pod that is
     * gone is charged nowhere (its delete event releases the node it was last annotated for; the older one is
     * released here); a pod that could not be read is recorded as observed, and the periodic repair settles the older
     * node once the pod can be read.
     */
    private CompletionStage<Boolean> moved(String node, String previous, PodRef pod, PodAllocation allocation,
                                           PodAddress key) {
        return pods.readLive(key).thenCompose(read -> {
            if (read instanceof LiveRead.Gone) {
                return release(previous, key, "");
            }
            if (read instanceof LiveRead.Unread) {
                return charge(node, pod, allocation, key);
            }
            String now = chargedNode(((LiveRead.Found) read).pod()).orElse("");
            CompletionStage<Boolean> recorded = now.equals(node) ? charge(node, pod, allocation, key)
                    : CompletableFuture.completedFuture(false);
            if (!now.equals(node)) {
                LOG.info("pod {}: a late observation on {} not recorded (it is on {} now)", key, node, now);
            }
            if (now.equals(previous)) {
                return recorded;
            }
            return recorded.thenCompose(changed -> release(previous, key, now).thenApply(r -> changed || r));
        });
    }

    /**
     * The repair of a charge a move left behind (its release failed, or happened before a late re-charge): releases
     * {@code pod}'s charge on {@code node} when a live read shows the pod naming another node. The caller saw the pod
     * charged on {@code node} while its informer cache names another node.
     *
     * @return true when released
     */
    CompletionStage<Boolean> releaseIfMoved(String node, PodAddress pod) {
        return pods.readPod(pod).thenCompose(live -> {
            Optional<String> now = live.flatMap(ChargeMoves::chargedNode);
            if (now.isEmpty() || now.get().equals(node)) {
                return CompletableFuture.completedFuture(false);
            }
            return release(node, pod, now.get());
        });
    }

    /**
     * Records the pod Bound on {@code node} as observed. A write is rare and worth a line: a bind's confirmation
     * makes the charge before the informer shows the binding, so the store changes only for a pod bound without
     * this gateway's {@code /bind}, or one whose charge had gone (which the capacity rule did not guard meanwhile).
     */
    private CompletionStage<Boolean> charge(String node, PodRef pod, PodAllocation allocation, PodAddress key) {
        NodeState before = state.nodeState(node); // immutable: what the owner's copy held before the write
        return state.observeBound(node, pod, allocation).thenApply(changed -> {
            if (changed) {
                LOG.info("pod {}: charged as bound on {} from what the API shows (the shared state held {})", key,
                        node, held(before, pod.uid(), allocation));
            }
            return changed;
        });
    }

    /**
     * What the owner's copy held for the pod just before a write that found it missing or different: a charge missing
     * for a second after a replica returned (the soaks of 2026-12-07) reads differently from a reservation made
     * Bound, or a binding recorded on other devices. Read from the local copy before the write, so a change in
     * between can show as the older value.
     */
    static String held(NodeState current, String uid, PodAllocation allocation) {
        if (current == null) {
            return "no state of the node here (not registered, or not owned by this replica)";
        }
        PodCharge charge = current.charge(uid);
        if (charge == null) {
            return "no charge of the pod";
        }
        if (charge instanceof PodCharge.Bound bound) {
            return bound.allocation().sameDevices(allocation) ? "the same Bound charge"
                    : "a Bound charge on other devices (" + bound.allocation() + ")";
        }
        return "a reservation" + (charge.allocation().sameDevices(allocation) ? " of the same devices"
                : " of other devices (" + charge.allocation() + ")");
    }

    private CompletionStage<Boolean> release(String node, PodAddress pod, String nowOn) {
        LOG.info("pod {} moved from {} to {}: its charge on {} released", pod, node,
                nowOn.isEmpty() ? "no node" : nowOn, node);
        return state.release(node, pod.uid());
    }

    private boolean boundHereAlready(String node, String uid, PodAllocation allocation) {
        NodeState current = state.nodeState(node);
        PodCharge charge = current == null ? null : current.charge(uid);
        return charge instanceof PodCharge.Bound b && b.allocation().sameDevices(allocation);
    }

    /**
     * Bound charges on {@code node} that no pod accounts for: the cache does not hold the pod and the API says it is
     * gone, or the cache names another node and so does a live read.
     *
     * @param cache looked up per charge by the charge's namespace and name (a map of every cached pod built per
     *              resync was 137 MiB of a replica's heap at 200,000 pods, about 21 of them alive at once)
     */
    CompletionStage<?> releaseVanished(String node, ClusterCache cache) {
        if (!state.ownsNode(node)) {
            return CompletableFuture.completedFuture(null);
        }
        // the key as stored: the owned copy lags it (a key just taken over, events behind under load)
        return stored.read(node).thenCompose(current -> current.isEmpty() ? CompletableFuture.completedFuture(null)
                : releaseVanished(current.get(), cache));
    }

    private CompletionStage<?> releaseVanished(NodeState current, ClusterCache cache) {
        String node = current.name();
        List<CompletableFuture<?>> releases = new ArrayList<>();
        current.charges().forEach((uid, charge) -> {
            if (!(charge instanceof PodCharge.Bound)) {
                return; // reservations expire on their own
            }
            PodAddress key = new PodAddress(charge.podNamespace(), charge.podName(), uid);
            // the cached pod of that name is this charge's pod only if it is the same incarnation
            Optional<ObservedPod> cached = cache.pod(key.namespace(), key.name())
                    .filter(p -> uid.equals(p.spec().uid()));
            if (cached.isPresent()) {
                if (!node.equals(Recorded.chargedNode(cached.get().spec()))) {
                    releases.add(releaseIfMoved(node, key).toCompletableFuture());
                }
                return;
            }
            releases.add(releaseIfGone(node, key).toCompletableFuture());
        });
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
    }

    /**
     * The repair of a charge whose pod the informer cache lacks: releases {@code pod}'s charge on {@code node} when the
     * API server says this incarnation is gone (its delete was not applied). A pod that exists, or could not be read,
     * keeps it (the cache may lag a create).
     *
     * @return true when released
     */
    CompletionStage<Boolean> releaseIfGone(String node, PodAddress pod) {
        return pods.isGone(pod).thenCompose(gone -> {
            if (!gone) {
                return CompletableFuture.completedFuture(false);
            }
            LOG.info("pod {} is gone but still charged on {}: released (its delete was not applied)", pod, node);
            return state.release(node, pod.uid());
        });
    }

    /** The node a pod is charged to: its {@code hami.io/vgpu-node} annotation (spec §8.1); empty when none. */
    static Optional<String> chargedNode(ObservedPod pod) {
        String node = pod.spec().annotation(HamiAnnotations.VGPU_NODE);
        return node == null || node.isEmpty() ? Optional.empty() : Optional.of(node);
    }
}
