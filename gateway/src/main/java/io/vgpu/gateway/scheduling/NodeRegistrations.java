package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import static io.vgpu.gateway.scheduling.IngestFailures.logged;

/**
 * Node upserts into the shared state, for keys this replica owns: a node's registration makes it eligible for
 * {@code /filter}, so a node is registered only while its bound pods are charged on it.
 * <pre>
 *   DRA-mode node ──────────────────────────────► removed (kube-scheduler allocates it from its ResourceSlice)
 *   no decodable register annotation ───────────► nothing (keep what is registered, as HAMi does)
 *   registered already ─────────────────────────► health (judged on every delivery): unhealthy ⇒ removed;
 *                                                 healthy ⇒ registered, unless an informer event finds it stored
 *                                                 already (see "Unchanged" below): nothing
 *   not registered (absent, or charges only) ───► awaiting: registered by the next resync of the key, which
 *                                                 charges the key's cached bound pods first
 * </pre>
 * Why the last row: a key is unregistered when the state was rebuilt from the API server (every replica restarted,
 * a partition lost with both copies) or for a new node. The informers deliver node and pod events in no joint
 * order (the node informer lists first, usually), and pod charges pass the ingest window: registering on the
 * node's event let {@code /filter} reserve capacity that a surviving pod still held, before its charge was stored
 * (an over-commit seen by the chaos run of 2026-12-02 right after the restart of every replica). A new node with
 * no pods waits one resync tick ({@link IngestRepair}), nothing more.
 *
 * <p>Unchanged: every decision's node lock and unlock is a node annotation change, so a node event, and each was a
 * register entry processor (a partition-thread operation, the inventory serialized, a callback hop) that wrote
 * nothing: 2.0 per decision with one replica in the benchmark's hop probe (issue 14, docs/benchmarks.md), none now.
 * <pre>
 *   question                     answer
 *   what does a skip change?     nothing: {@link NodeState#hasInventory} is the processor's own "writes nothing"
 *                                test (devices in order, Fit annotations, pair scores, value equality)
 *   is health still judged?      yes, before the skip, on every delivery: it keeps per-node memory (a count of GPUs
 *                                that drops to 0 is unhealthy only against the remembered one) and stamps the
 *                                handshake; it costs no store call, an API PATCH only when a stamp is due
 *   the owned copy lags the key  it is fed by the map's events: a removal or another inventory this replica
 *                                submitted a moment ago may not show yet (inventory A, event B registers B, event A
 *                                finds the copy still at A). So our last write per node stays {@code unsettled}
 *                                until an event finds it completed and shown (a failed one never settles: the next
 *                                event writes again); no event skips while it is there
 *   writes by others             (the key's earlier owner, a rebuilt state) and a reassertion lost in flight: the
 *                                nets never skip: the resync of moved keys (at once), of every owned key (30 s) and
 *                                the nodes' redelivery (15 s, {@link IngestRepair}) write whatever the copy shows
 *   the nets write every node    a bounded number in flight, each node as observed last ({@link NetDeliveries}):
 *   at once?                     not ~1,000 writes queued on the partition threads ahead of the decisions' calls
 * </pre>
 */
final class NodeRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistrations.class);

    private final ClusterState state;
    private final NodeHealth health;
    /** Owned keys with a node event but no registration yet: their bound pods are charged first. */
    private final Set<String> awaiting = ConcurrentHashMap.newKeySet();
    /**
     * Per node, the registration or removal this replica submitted last, until an event finds it stored and shown by
     * the owned copy (a node's entry stays while it is removed: a removal never shows as a registration).
     */
    private final Map<String, Write> unsettled = new ConcurrentHashMap<>();
    /** The nets' deliveries, a bounded number in flight: a net delivers every owned node at once. */
    private final NetDeliveries nets = new NetDeliveries(this::delivered);
    /** Each owned node's registration as last decoded: its lock events and redeliveries carry the same one. */
    private final DecodedInventories inventories = new DecodedInventories();

    NodeRegistrations(ClusterState state, NodeHealth health) {
        this.state = state;
        this.health = health;
    }

    /** An informer's node event for an owned key (see the class comment): an unchanged node writes nothing. */
    void upserted(NodeObservation node) {
        nets.observed(node);
        upserted(node, false, false);
    }

    /**
     * A net's delivery of an owned node (a resync, the periodic redelivery): as an event, except that a healthy
     * registered node is registered even when the owned copy shows it already.
     *
     * @param chargesStored whether the key's cached bound pods are charged already (the end of a resync)
     */
    void reasserted(NodeObservation node, boolean chargesStored) {
        nets.offer(node, chargesStored);
    }

    /** A net's delivery whose turn has come ({@link NetDeliveries}); a key no longer owned is its new owner's. */
    private CompletionStage<?> delivered(NodeObservation node, boolean chargesStored) {
        return state.ownsNode(node.name()) ? upserted(node, chargesStored, true)
                : CompletableFuture.completedFuture(null);
    }

    /** Completes when what it wrote (if anything) has been stored or has failed. */
    private CompletionStage<?> upserted(NodeObservation node, boolean chargesStored, boolean force) {
        if (node.draMode()) {
            // DRA mode (DESIGN.md §8): kube-scheduler allocates this node's GPUs from its ResourceSlice; a register
            // annotation left from device-plugin mode must not sell them a second time
            awaiting.remove(node.name());
            if (state.nodeState(node.name()) != null) {
                LOG.info("node {} is in DRA mode ({}={}): not eligible for the extender", node.name(),
                        DraNames.MODE_LABEL, DraNames.MODE_DRA);
                return remove(node.name());
            }
            return CompletableFuture.completedFuture(null);
        }
        Optional<NodeInventory> inventory = inventories.of(node);
        if (inventory.isEmpty()) {
            LOG.debug("node {}: no decodable {}; keeping what is registered", node.name(),
                    HamiAnnotations.NODE_NVIDIA_REGISTER);
            return CompletableFuture.completedFuture(null);
        }
        NodeState current = state.nodeState(node.name());
        if (!chargesStored && (current == null || !current.registered())) {
            awaiting.add(node.name());
            return CompletableFuture.completedFuture(null);
        }
        return health.healthy(node).handle((healthy, e) -> {
            if (e == null && Boolean.FALSE.equals(healthy)) {
                LOG.info("node {} is unhealthy (handshake expired, no allocatable GPUs): devices withdrawn",
                        node.name());
                return remove(node.name());
            } else if (!stored(inventory.get())) {
                return register(inventory.get());
            } else if (force) {
                // not remembered (or the redelivery kept every node's inventory here): if it changes the key at
                // all, it makes it what the owned copy shows
                return logged("register node " + node.name(), state.registerNode(inventory.get()));
            }
            return CompletableFuture.completedFuture(null);
        }).thenCompose(written -> written);
    }

    /**
     * Whether the key holds {@code inventory} as far as this replica can tell: the owned copy shows it and no write of
     * ours is unsettled (one that completed and that the copy shows settles here).
     */
    private boolean stored(NodeInventory inventory) {
        NodeState current = state.nodeState(inventory.name());
        if (current == null || !current.hasInventory(inventory)) {
            return false;
        }
        Write last = unsettled.get(inventory.name());
        return last == null || (last.settledAs(inventory) && unsettled.remove(inventory.name(), last));
    }

    private CompletionStage<?> register(NodeInventory inventory) {
        CompletionStage<Boolean> stage = state.registerNode(inventory);
        unsettled.put(inventory.name(), new Write(inventory, stage.toCompletableFuture()));
        return logged("register node " + inventory.name(), stage);
    }

    private CompletionStage<?> remove(String node) {
        CompletionStage<Boolean> stage = state.removeNode(node);
        unsettled.put(node, new Write(null, stage.toCompletableFuture()));
        return logged("remove node " + node, stage);
    }

    /** The node was deleted: its key goes (if owned), and what was remembered of it. */
    void deleted(String node) {
        health.forget(node);
        awaiting.remove(node);
        nets.forget(node);
        inventories.forget(node);
        // not remembered as a removal: a deleted node would keep its entry for good
        unsettled.remove(node);
        if (state.ownsNode(node)) {
            logged("remove node " + node, state.removeNode(node));
        }
    }

    /** Takes the keys awaiting their first registration (empty: none); a resync of them registers them. */
    Set<String> takeAwaiting() {
        if (awaiting.isEmpty()) {
            return Set.of();
        }
        Set<String> taken = new HashSet<>(awaiting);
        awaiting.removeAll(taken);
        return taken;
    }


    /**
     * A write this replica submitted: a registration, or a removal ({@code inventory} null).
     *
     * @param stored completes when the key holds it
     */
    private record Write(NodeInventory inventory, CompletableFuture<?> stored) {

        /** Stored, and the owned copy shows {@code shown}: the same registration. */
        boolean settledAs(NodeInventory shown) {
            return shown.equals(inventory) && stored.isDone() && !stored.isCompletedExceptionally();
        }
    }
}
