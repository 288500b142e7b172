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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node upserts into the shared state, for keys this replica owns: a node's registration makes it eligible for
 * {@code /filter}, so a node is registered only while its bound pods are charged on it.
 * <pre>
 *   DRA-mode node ──────────────────────────────► removed (kube-scheduler allocates it from its ResourceSlice)
 *   no decodable register annotation ───────────► nothing (keep what is registered, as HAMi does)
 *   registered already ─────────────────────────► health: registered again (new inventory) or removed
 *   not registered (absent, or charges only) ───► awaiting: registered by the next resync of the key, which
 *                                                 charges the key's cached bound pods first
 * </pre>
 * Why the last row: a key is unregistered when the state was rebuilt from the API server (every replica restarted,
 * a partition lost with both copies) or for a new node. The informers deliver node and pod events in no joint
 * order (the node informer lists first, usually), and pod charges pass the ingest window: registering on the
 * node's event let {@code /filter} reserve capacity that a surviving pod still held, before its charge was stored
 * (an over-commit seen by the chaos run of 2026-12-02 right after the restart of every replica). A new node with
 * no pods waits one resync tick ({@link IngestRepair}), nothing more.
 */
final class NodeRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistrations.class);

    private final ClusterState state;
    private final NodeHealth health;
    /** Owned keys with a node event but no registration yet: their bound pods are charged first. */
    private final Set<String> awaiting = ConcurrentHashMap.newKeySet();

    NodeRegistrations(ClusterState state, NodeHealth health) {
        this.state = state;
        this.health = health;
    }

    /**
     * An informer's node event for an owned key (see the class comment).
     *
     * @param chargesStored whether the key's cached bound pods are charged already (the end of a resync)
     */
    void upserted(NodeObservation node, boolean chargesStored) {
        if (node.draMode()) {
            // DRA mode (DESIGN.md §8): kube-scheduler allocates this node's GPUs from its ResourceSlice; a register
            // annotation left from device-plugin mode must not sell them a second time
            awaiting.remove(node.name());
            if (state.nodeState(node.name()) != null) {
                LOG.info("node {} is in DRA mode ({}={}): not eligible for the extender", node.name(),
                        DraNames.MODE_LABEL, DraNames.MODE_DRA);
                logFailure("remove node " + node.name(), state.removeNode(node.name()));
            }
            return;
        }
        Optional<NodeInventory> inventory = Recorded.inventory(node);
        if (inventory.isEmpty()) {
            LOG.debug("node {}: no decodable {}; keeping what is registered", node.name(),
                    HamiAnnotations.NODE_NVIDIA_REGISTER);
            return;
        }
        NodeState current = state.nodeState(node.name());
        if (!chargesStored && (current == null || !current.registered())) {
            awaiting.add(node.name());
            return;
        }
        health.healthy(node).whenComplete((healthy, e) -> {
            if (e == null && Boolean.FALSE.equals(healthy)) {
                LOG.info("node {} is unhealthy (handshake expired, no allocatable GPUs): devices withdrawn",
                        node.name());
                logFailure("remove node " + node.name(), state.removeNode(node.name()));
            } else {
                logFailure("register node " + node.name(), state.registerNode(inventory.get()));
            }
        });
    }

    /** The node was deleted: nothing waits for it any more. */
    void deleted(String node) {
        awaiting.remove(node);
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

    private static void logFailure(String what, CompletionStage<?> stage) {
        stage.whenComplete((r, e) -> {
            if (e != null) {
                LOG.warn("ingest: {} failed: {}", what, e.toString());
            }
        });
    }
}
