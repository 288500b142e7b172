package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The authoritative GPU state of one node, the value of one key of the shared node map (DESIGN.md §3):
 * its registered inventory, one {@link PodCharge} per pod UID placed on it, and the holder of its node
 * lock. Immutable; every change is a pure transition method that returns a {@link Transition} with a NEW
 * value and an outcome record. Transitions are deterministic (the caller passes the time), so the store can
 * replay them on backups, and idempotent, so a retried call after a lost response is safe.
 *
 * <p>Per pod UID:
 * <pre>
 *                  reserve, if AllocationCheck.admits
 *   (none) ──────────────────────────────────────► Reserved(alloc, deadline) ◄─┐ reserve again: same alloc ⇒
 *     │ ▲                                             │    │    └───────────────┘ later deadline; another
 *     │ └─ expire (≤ now), release(Reservation) ──────┘    │                      alloc ⇒ replaced if admitted
 *     │ ▲                                                  │ confirm: live ⇒ as is;
 *     │ │                                                  │ expired ⇒ re-checked, or Refused
 *     │ │                                                  ▼
 *     └─┼── observeBound; confirm(fallback) if admitted ► Bound(alloc) ◄─┐ confirm, observeBound again:
 *       └──── release ────────────────────────────────────┘    └─────────┘ idempotent; reserve ⇒ AlreadyBound
 * </pre>
 * Bound never goes back to Reserved: {@link #reserve} answers {@code AlreadyBound} and {@link #expire} only
 * drops reservations; {@link #releaseReservation} keeps a binding, which only {@link #release} drops.
 * Transitions that take {@code now} ({@link #reserve}, {@link #confirm}) first drop every
 * expired reservation, so an expired entry never blocks capacity even before a sweep removed it.
 *
 * <p>Node lock (the shared-state decision; the annotation {@code hami.io/mutex.lock} follows it):
 * <pre>
 *   unlocked ──lockNode(p)──► held(p, since) ──unlockNode(p)──► unlocked
 *                                │  lockNode(p): Held (re-entrant)
 *                                │  lockNode(q), now - since ≤ timeout: Contended(p)
 *                                │  lockNode(q), now - since &gt; timeout: Acquired(replaced p) → held(q, now)
 *                                │  unlockNode(q): NotHolder(p)
 * </pre>
 *
 * <p>A key that does not exist behaves as {@link #absent} (an unregistered, empty, unlocked node); a value
 * that becomes {@link #isVacant() vacant} again is removed by the store. Unregistered nodes refuse
 * reservations, confirmations of unbound pods and locks, but accept informer bindings ({@link #observeBound})
 * so that pod events that arrive before the node's registration are not lost.
 *
 * @param name       node name
 * @param registered whether the node's device plugin has registered an inventory
 * @param devices    registered GPUs, in registration order
 * @param annotations node annotations Fit consults
 * @param pairScores NVLink/topology pair scores per device UUID
 * @param charges    per pod UID, its charge (sorted by UID)
 * @param lock       the node-lock holder, or null when unlocked
 * @param version    orders the stored value's changes (the store adds one to it with every change it writes, so
 *                   copies derived from the value, e.g. a replica's usage summary, can be ordered; a new owner of the
 *                   key moves it to a new epoch, {@link NodeVersions}); transitions keep it
 */
public record NodeState(String name, boolean registered, List<GpuDevice> devices, Map<String, String> annotations,
                        Map<String, Map<String, Integer>> pairScores, Map<String, PodCharge> charges,
                        NodeLockHolder lock, long version) {

    /**
     * Requires a name; copies collections (charges sorted by UID; devices and pair scores as {@link NodeInventory}
     * shares them).
     */
    public NodeState {
        Objects.requireNonNull(name, "name");
        devices = NodeInventory.copyDevices(devices);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        pairScores = NodeInventory.copyScores(pairScores);
        charges = charges == null || charges.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(charges));
    }

    /** A value at version 0 (never stored). */
    public NodeState(String name, boolean registered, List<GpuDevice> devices, Map<String, String> annotations,
                     Map<String, Map<String, Integer>> pairScores, Map<String, PodCharge> charges, NodeLockHolder lock) {
        this(name, registered, devices, annotations, pairScores, charges, lock, 0);
    }

    /** This value at {@code next}, for the store that writes it. */
    public NodeState withVersion(long next) {
        return new NodeState(name, registered, devices, annotations, pairScores, charges, lock, next);
    }

    /** The value a missing key stands for: not registered, nothing charged, unlocked. */
    public static NodeState absent(String name) {
        return new NodeState(name, false, List.of(), Map.of(), Map.of(), Map.of(), null);
    }

    /** Returns true when this value carries nothing (the store then removes the key). */
    public boolean isVacant() {
        return !registered && charges.isEmpty() && lock == null;
    }

    /** The registered inventory, or null when the node is not registered. */
    public NodeInventory inventory() {
        return registered ? new NodeInventory(name, devices, annotations, pairScores) : null;
    }

    /** The charge of pod {@code podUid}, or null. */
    public PodCharge charge(String podUid) {
        return charges.get(podUid);
    }

    /** Returns true when some reservation has a deadline at or before {@code nowMillis}. */
    public boolean hasExpiredAt(long nowMillis) {
        for (PodCharge c : charges.values()) {
            if (c instanceof PodCharge.Reserved r && r.expiredAt(nowMillis)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- transitions

    /**
     * Registers (or replaces) the inventory, keeping charges and lock. Registering an equal inventory changes
     * nothing.
     *
     * @param inventory the node's inventory; its name must be this node's
     * @return outcome true when the value changed
     */
    public Transition<NodeState, Boolean> register(NodeInventory inventory) {
        if (!inventory.name().equals(name)) {
            throw new IllegalArgumentException("inventory of " + inventory.name() + " registered on node " + name);
        }
        if (hasInventory(inventory)) {
            return Transition.unchanged(this, false);
        }
        return Transition.to(new NodeState(name, true, inventory.devices(), inventory.annotations(),
                inventory.pairScores(), charges, lock, version), true);
    }

    /**
     * Whether {@link #register registering} {@code inventory} would change nothing: the node is registered with
     * equal devices (in order), Fit annotations and pair scores (value equality, as for every other field). The one
     * definition of "unchanged" shared by the transition and by callers that skip submitting it (the gateway's
     * ingest).
     */
    public boolean hasInventory(NodeInventory inventory) {
        return registered && name.equals(inventory.name()) && devices.equals(inventory.devices())
                && annotations.equals(inventory.annotations()) && pairScores.equals(inventory.pairScores());
    }

    /**
     * Reserves {@code allocation} for {@code pod} until {@code deadlineMillis} if the capacity rule admits it
     * against the usage of every other live charge. Replaces the pod's earlier reservation on this node; the
     * identical reservation again succeeds without a re-check, keeping the later deadline. Refused ⇒ the
     * pod's entry is unchanged (expired reservations of other pods are still dropped).
     */
    public Transition<NodeState, ReserveOutcome> reserve(PodRef pod, PodAllocation allocation, long nowMillis,
                                                         long deadlineMillis) {
        if (!registered) {
            return Transition.unchanged(this, new ReserveOutcome.UnknownNode());
        }
        if (charges.get(pod.uid()) instanceof PodCharge.Bound bound) {
            return Transition.unchanged(this, new ReserveOutcome.AlreadyBound(bound.allocation()));
        }
        NodeState base = withoutExpired(nowMillis);
        if (base.charges.get(pod.uid()) instanceof PodCharge.Reserved own && own.allocation().equals(allocation)) {
            long deadline = Math.max(own.deadlineMillis(), deadlineMillis);
            PodCharge.Reserved again = new PodCharge.Reserved(allocation, deadline, pod.namespace(), pod.name());
            return base.withCharge(pod.uid(), again, new ReserveOutcome.Reserved(deadline), this);
        }
        if (!AllocationCheck.admits(base.usageWithout(pod.uid()), allocation)) {
            return base.changedFrom(this, new ReserveOutcome.Refused());
        }
        PodCharge.Reserved fresh = new PodCharge.Reserved(allocation, deadlineMillis, pod.namespace(), pod.name());
        return base.withCharge(pod.uid(), fresh, new ReserveOutcome.Reserved(deadlineMillis), this);
    }

    /**
     * {@code /bind}'s first step: a live reservation becomes Bound; an expired one (or none, when
     * {@code fallback} is given, e.g. decoded from the pod's annotations) is re-checked with the capacity rule
     * and charged as Bound, or refused; a pod already Bound succeeds without charging twice.
     *
     * @param fallback the allocation to re-reserve when the pod has no entry here, or null
     */
    public Transition<NodeState, ConfirmOutcome> confirm(PodRef pod, PodAllocation fallback, long nowMillis) {
        PodCharge own = charges.get(pod.uid());
        if (own instanceof PodCharge.Bound) {
            return Transition.unchanged(this, new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.ALREADY_BOUND));
        }
        if (!registered) {
            return Transition.unchanged(this, new ConfirmOutcome.UnknownNode());
        }
        if (own instanceof PodCharge.Reserved r && !r.expiredAt(nowMillis)) {
            PodCharge.Bound bound = new PodCharge.Bound(r.allocation(), pod.namespace(), pod.name());
            return withCharge(pod.uid(), bound, new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION), this);
        }
        PodAllocation allocation = own != null ? own.allocation() : fallback;
        if (allocation == null) {
            return Transition.unchanged(this, new ConfirmOutcome.Missing());
        }
        NodeState base = withoutExpired(nowMillis);
        if (!AllocationCheck.admits(base.usageWithout(pod.uid()), allocation)) {
            return base.changedFrom(this, new ConfirmOutcome.Refused());
        }
        PodCharge.Bound bound = new PodCharge.Bound(allocation, pod.namespace(), pod.name());
        return base.withCharge(pod.uid(), bound, new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED), this);
    }

    /**
     * {@code /bind}'s confirmation and node lock in one step ({@link ConfirmLockOutcome}): {@link #confirm}, then,
     * when it charged the pod now, {@link #lockNode} on the result. A contended lock discards the confirmation too
     * (the value is unchanged), so a bind that waits for the lock holds nothing meanwhile and tries both again.
     */
    public Transition<NodeState, ConfirmLockOutcome> confirmAndLock(PodRef pod, PodAllocation fallback, long nowMillis,
                                                                   long lockTimeoutMillis) {
        Transition<NodeState, ConfirmOutcome> confirmed = confirm(pod, fallback, nowMillis);
        boolean chargedNow = confirmed.outcome() instanceof ConfirmOutcome.Confirmed c
                && c.via() != ConfirmOutcome.Via.ALREADY_BOUND;
        if (!chargedNow) {
            return new Transition<>(confirmed.next(), new ConfirmLockOutcome(confirmed.outcome(), null),
                    confirmed.changed());
        }
        Transition<NodeState, LockOutcome> locked = confirmed.next().lockNode(pod.namespace(), pod.name(), nowMillis,
                lockTimeoutMillis);
        ConfirmLockOutcome outcome = new ConfirmLockOutcome(confirmed.outcome(), locked.outcome());
        if (!locked.outcome().holds()) {
            return Transition.unchanged(this, outcome);
        }
        return new Transition<>(locked.next(), outcome, confirmed.changed() || locked.changed());
    }

    /**
     * Informer ingest of a pod that is bound to this node ({@code spec.nodeName} set or a
     * {@code hami.io/bind-phase}): records it as Bound with the allocation from its annotations, without a
     * capacity check (it is a fact, not a decision). Moves forward only: a reservation becomes Bound; a binding of
     * the same devices ({@link PodAllocation#sameDevices}: the annotation carries no idx) changes nothing; a binding
     * with other devices takes the annotation's (Kubernetes is the durable truth).
     *
     * @return outcome true when the value changed
     */
    public Transition<NodeState, Boolean> observeBound(PodRef pod, PodAllocation allocation) {
        PodCharge.Bound bound = new PodCharge.Bound(allocation, pod.namespace(), pod.name());
        if (charges.get(pod.uid()) instanceof PodCharge.Bound held && held.allocation().sameDevices(allocation)
                && held.podNamespace().equals(bound.podNamespace()) && held.podName().equals(bound.podName())) {
            return Transition.unchanged(this, false); // the decision's own binding, idx included
        }
        return withCharge(pod.uid(), bound, true, this);
    }

    /**
     * Drops whatever pod {@code podUid} holds here (reservation or binding).
     *
     * @return outcome true when there was something to drop
     */
    public Transition<NodeState, Boolean> release(String podUid) {
        if (!charges.containsKey(podUid)) {
            return Transition.unchanged(this, false);
        }
        Map<String, PodCharge> next = new TreeMap<>(charges);
        next.remove(podUid);
        return Transition.to(withCharges(next), true);
    }

    /**
     * Drops {@code podUid}'s reservation here, keeping a binding: what a decision elsewhere may undo without evidence
     * about the pod (a later reservation of it on another node, a bind that found no pod). A binding is dropped only
     * by {@link #release}, on evidence: the pod ended, was deleted, or is bound elsewhere.
     *
     * @return outcome true when a reservation was dropped
     */
    public Transition<NodeState, Boolean> releaseReservation(String podUid) {
        return charges.get(podUid) instanceof PodCharge.Reserved ? release(podUid) : Transition.unchanged(this, false);
    }

    /**
     * Drops every reservation whose deadline is at or before {@code nowMillis}; bindings are kept.
     *
     * @return outcome: the UIDs dropped, sorted (empty when nothing changed)
     */
    public Transition<NodeState, List<String>> expire(long nowMillis) {
        NodeState next = withoutExpired(nowMillis);
        if (next == this) {
            return Transition.unchanged(this, List.of());
        }
        List<String> dropped = new ArrayList<>();
        for (String uid : charges.keySet()) {
            if (!next.charges.containsKey(uid)) {
                dropped.add(uid);
            }
        }
        return Transition.to(next, List.copyOf(dropped));
    }

    /**
     * Takes the node lock for pod {@code podNamespace/podName}: free ⇒ acquired; held by this pod ⇒ held
     * (re-entrant); held by another pod for more than {@code timeoutMillis} ⇒ taken over; else contended.
     */
    public Transition<NodeState, LockOutcome> lockNode(String podNamespace, String podName, long nowMillis,
                                                       long timeoutMillis) {
        if (!registered) {
            return Transition.unchanged(this, new LockOutcome.UnknownNode());
        }
        if (lock != null && lock.heldBy(podNamespace, podName)) {
            return Transition.unchanged(this, new LockOutcome.Held(lock.sinceMillis()));
        }
        if (lock != null && !lock.expiredAt(nowMillis, timeoutMillis)) {
            return Transition.unchanged(this, new LockOutcome.Contended(lock));
        }
        NodeLockHolder holder = new NodeLockHolder(podNamespace, podName, nowMillis);
        return Transition.to(withLock(holder), new LockOutcome.Acquired(nowMillis, lock));
    }

    /** Releases the node lock if pod {@code podNamespace/podName} holds it (owner-checked, idempotent). */
    public Transition<NodeState, UnlockOutcome> unlockNode(String podNamespace, String podName) {
        if (lock == null) {
            return Transition.unchanged(this, new UnlockOutcome.NotLocked());
        }
        if (!lock.heldBy(podNamespace, podName)) {
            return Transition.unchanged(this, new UnlockOutcome.NotHolder(lock));
        }
        return Transition.to(withLock(null), new UnlockOutcome.Unlocked());
    }

    // ---------------------------------------------------------------- views

    /**
     * The node as the scheduler scores it: each registered card's usage with every charge on this node
     * (reservations until they are swept, and bindings) added. An unregistered node has no devices.
     */
    public NodeView view() {
        return new NodeView(name, usageWithout(null), annotations, pairScores);
    }

    /** Device usage with every charge except {@code podUid}'s (null: all charges). */
    public List<DeviceUsage> usageWithout(String podUid) {
        List<List<DeviceGrant>> grants = new ArrayList<>(charges.size());
        charges.forEach((uid, charge) -> {
            if (!uid.equals(podUid)) {
                grants.add(charge.allocation().grants());
            }
        });
        return UsageAccounting.nodeUsage(devices, grants);
    }

    // ---------------------------------------------------------------- helpers

    private NodeState withoutExpired(long nowMillis) {
        if (!hasExpiredAt(nowMillis)) {
            return this;
        }
        Map<String, PodCharge> next = new TreeMap<>(charges);
        next.values().removeIf(c -> c instanceof PodCharge.Reserved r && r.expiredAt(nowMillis));
        return withCharges(next);
    }

    private <O> Transition<NodeState, O> withCharge(String podUid, PodCharge charge, O outcome, NodeState before) {
        if (charge.equals(charges.get(podUid))) {
            return changedFrom(before, outcome);
        }
        Map<String, PodCharge> next = new TreeMap<>(charges);
        next.put(podUid, charge);
        return Transition.to(withCharges(next), outcome);
    }

    private <O> Transition<NodeState, O> changedFrom(NodeState before, O outcome) {
        return this == before ? Transition.unchanged(this, outcome) : Transition.to(this, outcome);
    }

    private NodeState withCharges(Map<String, PodCharge> next) {
        return new NodeState(name, registered, devices, annotations, pairScores, next, lock, version);
    }

    private NodeState withLock(NodeLockHolder next) {
        return new NodeState(name, registered, devices, annotations, pairScores, charges, next, version);
    }
}
