package io.vgpu.state.model;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The cluster's GPU state shared by every gateway replica: the port the Hazelcast store implements
 * (cluster-state-store) and that the in-process simulation implements in memory. DESIGN.md §3.
 *
 * <p>One {@link NodeState} per node holds the node's inventory, one charge per pod UID and the node-lock
 * holder; one {@link QuotaState} per namespace holds its quota charges. Every change is one of the pure
 * transitions of those values, applied atomically to one key (see {@link NodeState} for the life cycle of a
 * pod's charge and of the node lock); different keys change in parallel; there is no global lock.
 *
 * <p>Contract for implementations and callers:
 * <ul>
 *   <li><b>Never blocks.</b> Every change returns a {@link CompletionStage} that completes on another thread
 *       (or already completed, for the in-memory implementation); local reads ({@link #nodes}, {@link #node},
 *       {@link #nodeState}, {@link #quota}) return at once with no network hop. That thread may be the state's
 *       own (e.g. a Hazelcast response thread, for the decision calls {@link #reserve}, {@link #confirm},
 *       {@link #confirmAndLock} and {@link #lockNode}): attach continuations with an executor or a Vert.x context
 *       of the caller's, never bare, and never block in one.</li>
 *   <li><b>Expected rejections are outcome values</b> ({@link ReserveOutcome}, {@link ConfirmOutcome},
 *       {@link LockOutcome}, {@link UnlockOutcome}, {@link QuotaOutcome}); a stage fails only when the state
 *       cannot serve the call, with {@link ClusterStateUnavailableException} (no split-brain quorum, member
 *       shutting down, timeout); a caller answers {@code Error} then, never allocates.</li>
 *   <li><b>Capacity.</b> {@link #reserve} and {@link #confirm} re-check the allocation with
 *       {@link AllocationCheck#admits} against the authoritative value, so decisions made on a stale local view
 *       never over-commit a card; {@link #observeBound} records facts without a check.</li>
 *   <li><b>Idempotent.</b> Repeating any call with the same arguments has the effect of one call, so a retry
 *       after a lost response is safe; per-UID state only moves forward (Bound never returns to Reserved).</li>
 *   <li><b>Deterministic.</b> The caller passes the time ({@code nowMillis}, epoch millis); implementations
 *       read no clock.</li>
 *   <li><b>Local view.</b> The local reads are fed by change events: they may lag a change made elsewhere by a
 *       few milliseconds and converge on every replica.</li>
 * </ul>
 *
 * <p>Orchestration stays with the gateway: quota is reserved before the node and released if the node
 * refuses; {@code /bind} runs {@link #confirmAndLock} (or {@link #confirm} for a pod that needs no lock). One entry
 * per pod: a re-filtered pod reserves on its new node first, and the reservation then releases its old entry, found
 * with the pod index ({@link #podNode}).
 */
public interface ClusterState {

    // ------------------------------------------------------------------ nodes

    /**
     * Registers (or replaces) a node's inventory, keeping the charges and the lock of the node. Registering an
     * equal inventory changes nothing (no replication, no event).
     *
     * @return true when the stored value changed
     */
    CompletionStage<Boolean> registerNode(NodeInventory inventory);

    /**
     * Forgets a node entirely (the Node object was deleted): inventory, charges and lock. Idempotent.
     *
     * @return true when the node was known
     */
    CompletionStage<Boolean> removeNode(String node);

    // ------------------------------------------------------------------ pod charges

    /**
     * {@code /filter}'s reservation: atomically reserves {@code allocation} for {@code pod} on {@code node} until
     * {@code deadlineMillis} if the capacity rule still admits it against every other live charge, replacing
     * the pod's earlier reservation on that node. Expired reservations are not counted. On success the pod
     * index ({@link #podNode}) is updated to {@code node} right after, and the pod's entry on the node the index
     * pointed at before, if another, is released (neither awaited by the returned stage): a pod holds one entry.
     *
     * @param nowMillis      the caller's clock
     * @param deadlineMillis when the reservation expires unless confirmed (below kube-scheduler's 30 s assume
     *                       timeout)
     */
    CompletionStage<ReserveOutcome> reserve(String node, PodRef pod, PodAllocation allocation, long nowMillis,
                                            long deadlineMillis);

    /**
     * {@code /bind}'s first step: turns the pod's live reservation on {@code node} into a binding; if it expired
     * (or is gone and {@code fallback} is given, e.g. decoded from the pod's annotations) re-checks the capacity
     * rule and binds or refuses; a pod already bound there succeeds without charging twice. A re-reservation moves
     * the pod index as {@link #reserve} does.
     *
     * @param fallback the allocation to re-reserve when the pod has no entry on the node, or null
     */
    CompletionStage<ConfirmOutcome> confirm(String node, PodRef pod, PodAllocation fallback, long nowMillis);

    /**
     * {@code /bind}'s confirmation and shared node lock in one atomic step on the node's key
     * ({@link NodeState#confirmAndLock}, {@link ConfirmLockOutcome}): {@link #confirm}, then, when it charged the pod
     * now, {@link #lockNode}. When the lock is contended neither is applied, so the bind waits holding nothing and
     * calls again. A re-reservation moves the pod index as {@link #confirm} does.
     *
     * @param fallback          the allocation to re-reserve when the pod has no entry on the node, or null
     * @param lockTimeoutMillis after how long another holder's lock may be taken over
     */
    CompletionStage<ConfirmLockOutcome> confirmAndLock(String node, PodRef pod, PodAllocation fallback, long nowMillis,
                                                       long lockTimeoutMillis);

    /**
     * Informer ingest: records {@code pod} as bound on {@code node} with {@code allocation} (the pod has
     * {@code spec.nodeName} or a {@code hami.io/bind-phase}); no capacity check; a node not yet registered keeps
     * the charge until it registers. Call it only for nodes this replica {@link #ownsNode owns} so that N
     * replicas do not write N times (safe anyway: idempotent).
     *
     * @return true when the stored value changed
     */
    CompletionStage<Boolean> observeBound(String node, PodRef pod, PodAllocation allocation);

    /**
     * Drops whatever {@code podUid} holds on {@code node} (the pod ended, was deleted, moved, or its bind
     * failed). Idempotent: releasing nothing succeeds.
     *
     * @return true when something was dropped
     */
    CompletionStage<Boolean> release(String node, String podUid);

    /**
     * Drops {@code podUid}'s reservation on {@code node}, keeping a binding ({@link NodeState#releaseReservation}):
     * the undo of a decision that holds no evidence about the pod's binding (a filter whose annotation failed, a bind
     * that found the pod gone or no node). Idempotent.
     *
     * @return true when a reservation was dropped
     */
    CompletionStage<Boolean> releaseReservation(String node, String podUid);

    /**
     * The node the pod's last successful reservation or binding is on, from the pod index; empty when none.
     * May lag a reservation made a few milliseconds earlier.
     */
    CompletionStage<Optional<String>> podNode(String podUid);

    /**
     * Drops every reservation and unconfirmed quota charge whose deadline is at or before {@code nowMillis},
     * on the keys this replica owns (each replica sweeps its own; call it periodically from every replica).
     *
     * @return how many entries were dropped
     */
    CompletionStage<Integer> sweepExpired(long nowMillis);

    // ------------------------------------------------------------------ node lock

    /**
     * Takes the shared-state node lock for pod {@code podNamespace/podName} (the decision before the
     * {@code hami.io/mutex.lock} annotation is written): free ⇒ {@code Acquired}; held by this pod ⇒
     * {@code Held}; held by another pod for more than {@code timeoutMillis} ⇒ taken over ({@code Acquired} with
     * the replaced holder); else {@code Contended} with the holder, to wait for.
     */
    CompletionStage<LockOutcome> lockNode(String node, String podNamespace, String podName, long nowMillis,
                                          long timeoutMillis);

    /**
     * Releases the node lock if pod {@code podNamespace/podName} holds it (owner-checked; idempotent). A caller
     * clearing a lock it found dangling or whose annotation is gone passes that holder's name.
     */
    CompletionStage<UnlockOutcome> unlockNode(String node, String podNamespace, String podName);

    // ------------------------------------------------------------------ quota

    /**
     * Sets the enforced limits of {@code namespace} ({@link QuotaLimits#NONE} when its ResourceQuota is gone),
     * keeping its charges.
     *
     * @return true when the stored value changed
     */
    CompletionStage<Boolean> setQuotaLimits(String namespace, QuotaLimits limits);

    /**
     * Charges {@code podUid} with {@code mem} MiB and {@code cores} percent against {@code namespace}'s quota
     * until {@code deadlineMillis} if {@link QuotaRule#fits} admits it against the other live charges. Pass
     * {@link QuotaCharge#NO_DEADLINE} to confirm at bind time (the same amounts again need no re-check).
     */
    CompletionStage<QuotaOutcome> reserveQuota(String namespace, String podUid, long mem, long cores, long nowMillis,
                                               long deadlineMillis);

    /**
     * Informer ingest of a bound pod's quota charge: no check, never expires.
     *
     * @return true when the stored value changed
     */
    CompletionStage<Boolean> observeQuota(String namespace, String podUid, long mem, long cores);

    /**
     * Drops {@code podUid}'s quota charge (rollback after a refused node reservation, or the pod ended).
     * Idempotent.
     *
     * @return true when something was dropped
     */
    CompletionStage<Boolean> releaseQuota(String namespace, String podUid);

    // ------------------------------------------------------------------ local reads

    /** The local view of every registered node's usage, for scoring. Never blocks; weakly consistent. */
    Collection<NodeView> nodes();

    /** The local view of one node, or null when it is not registered. Never blocks. */
    NodeView node(String name);

    /**
     * A mark in this replica's log of changed node views ({@link ViewChanges}), taken before the views a caller is
     * about to read; negative when the state keeps no such log (then {@link #viewsChangedSince} never answers).
     */
    default long viewMark() {
        return -1;
    }

    /**
     * Hands every node whose local view changed since {@code mark} ({@link #viewMark}) to {@code changed}; false when
     * that is not known (no log, or changes past the log's reach): then any node's view may have changed.
     */
    default boolean viewsChangedSince(long mark, Consumer<String> changed) {
        return false;
    }

    /**
     * The full state (charges, lock) of a node whose key this replica {@link #ownsNode owns}, from the owner's local
     * copy; null when the key is absent or another replica owns it (full node states never fan out to other
     * replicas: DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"). For the owner-side callers: ingest, lock
     * release, gauges, debug dumps. Never blocks.
     */
    NodeState nodeState(String name);

    /**
     * The full state of any node, read from its key's owner (no network hop when this replica owns it); empty when
     * the key is absent. Fails with {@link ClusterStateUnavailableException} when the state cannot serve the read.
     */
    CompletionStage<Optional<NodeState>> readNode(String name);

    /**
     * The value as the node's key holds it now, read at the key's owner and never from a local copy that may lag
     * behind the key ({@link #nodeState}'s, fed by events): what a resync compares with the informer cache, where a
     * lagging copy would show stored charges as missing and send every such pod to a live read. Empty when the key is
     * absent; fails as {@link #readNode} does. Implementations without such a copy read as {@link #readNode}.
     */
    default CompletionStage<Optional<NodeState>> readStoredNode(String name) {
        return readNode(name);
    }

    /** The local copy of one namespace's quota, or {@link QuotaState#absent} when none. Never blocks. */
    QuotaState quota(String namespace);

    /**
     * Registers {@code resync}, called with a predicate over node names and namespaces whenever this replica must
     * re-ingest the matching ones from its informer cache (DESIGN.md §3 "Ingest once"): it became their owner
     * (migration, or promotion after a replica left), or their entries were lost with every copy. The predicate
     * only matches keys this replica owns when it is evaluated. Runs on a store thread: hand the work over, do not
     * block. Until the re-ingest is done those nodes should not be offered to {@code /filter}.
     */
    void onResync(Consumer<Predicate<String>> resync);

    /**
     * Whether this replica owns {@code node}'s key right now, i.e. is the one that should ingest informer events
     * for it and write its handshake and lock annotations (DESIGN.md §3 "Ingest once"). Never blocks; during a
     * migration two replicas may both answer true or both false for a moment (the changes are idempotent).
     */
    boolean ownsNode(String node);
}
