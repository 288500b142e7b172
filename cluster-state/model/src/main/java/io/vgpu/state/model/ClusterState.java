package io.vgpu.state.model;

import java.util.Collection;
import java.util.concurrent.CompletionStage;

/**
 * The cluster's GPU state as the gateway sees it: the port the Hazelcast store implements
 * (cluster-state-store) and that the in-process simulation implements in memory.
 *
 * <p>Life cycle of one pod's charge on a node (kube's assume/forget, DESIGN.md §3):
 * <pre>
 *            reserve (admits re-checked)          confirm (bind)
 *   Free ─────────────────────────────► Reserved ───────────────► Bound
 *    ▲                                     │  deadline passed         │ pod ends / deleted
 *    │          expire                     ▼                          ▼
 *    └──────────────────────────────── Released ◄─────────────────────┘
 * </pre>
 *
 * <p>Contract for implementations: every change to one node is atomic with respect to every other
 * change to that node (one entry processor per node key); {@link #reserve} re-checks capacity with
 * {@link CapacityRule#admits} against the authoritative value and never lets the sum of grants on a
 * device exceed its capacity; every operation is idempotent for the same pod UID; methods never block
 * the caller (they return a stage that completes on another thread).
 */
public interface ClusterState {

    /**
     * Registers (or replaces) a node's devices and the node annotations Fit reads, keeping the charges
     * of pods already placed on it. Idempotent.
     */
    CompletionStage<Void> registerNode(NodeView registration);

    /**
     * Atomically reserves {@code allocation} for pod {@code podUid} on {@code node} if every device
     * still admits it, replacing an earlier entry of the same pod on that node.
     *
     * @param nowMillis      the caller's clock, so that replays on backups are deterministic
     * @param deadlineMillis when an unconfirmed reservation expires
     * @return true when reserved, false when the authoritative state refused it (a lost race)
     */
    CompletionStage<Boolean> reserve(String node, String podUid, PodAllocation allocation, long nowMillis,
                                     long deadlineMillis);

    /**
     * Releases whatever pod {@code podUid} holds on {@code node}. Idempotent: releasing nothing succeeds.
     */
    CompletionStage<Void> release(String node, String podUid);

    /**
     * The local (possibly slightly stale) view of every node's usage, for scoring. Never blocks.
     */
    Collection<NodeView> nodes();

    /** The local view of one node, or null when it is not registered. Never blocks. */
    NodeView node(String name);
}
