package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The GPU quota of one namespace, the value of one key of the shared quota map (DESIGN.md §3 "Quota"): the
 * enforced limits and one {@link QuotaCharge} per pod UID. Usage is the sum of the charges, so charging the
 * same pod twice never counts twice. Immutable; pure, deterministic, idempotent transitions as in
 * {@link NodeState}:
 * <pre>
 *   (none) ──reserve(deadline), if QuotaRule.fits──► charge(deadline) ──reserve(NO_DEADLINE)──► charge(bound)
 *     ▲  ▲                                             │                 (confirm: same amounts,   │
 *     │  └──── expire (deadline ≤ now), release ───────┘                  no re-check)             │
 *     └─────── release ─────────────────────────────────────────────────────────────────────────────┘
 *   observe (informer: bound pod) ⇒ charge(bound) without a check; a bound charge never gets a deadline again
 * </pre>
 * The gateway reserves quota before the node and releases it when the node reservation fails.
 *
 * @param namespace namespace
 * @param limits    enforced limits (memory already scaled by memoryFactor)
 * @param charges   per pod UID, its charge (sorted by UID)
 */
public record QuotaState(String namespace, QuotaLimits limits, Map<String, QuotaCharge> charges) {

    /** Requires a namespace; null limits mean none; charges are copied sorted. */
    public QuotaState {
        Objects.requireNonNull(namespace, "namespace");
        limits = limits == null ? QuotaLimits.NONE : limits;
        charges = charges == null || charges.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(charges));
    }

    /** The value a missing key stands for: no limits, no charges. */
    public static QuotaState absent(String namespace) {
        return new QuotaState(namespace, QuotaLimits.NONE, Map.of());
    }

    /** Returns true when this value carries nothing (the store then removes the key). */
    public boolean isVacant() {
        return limits.none() && charges.isEmpty();
    }

    /** The memory entry as {@link QuotaRule} reads it: usage of every charge and the memory limit. */
    public QuotaLimit memory() {
        return memoryWithout(null);
    }

    /** The core entry as {@link QuotaRule} reads it. */
    public QuotaLimit cores() {
        return coresWithout(null);
    }

    /** The charge of pod {@code podUid}, or null. */
    public QuotaCharge charge(String podUid) {
        return charges.get(podUid);
    }

    /** Returns true when some unconfirmed charge has a deadline at or before {@code nowMillis}. */
    public boolean hasExpiredAt(long nowMillis) {
        for (QuotaCharge c : charges.values()) {
            if (c.expiredAt(nowMillis)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- transitions

    /** Replaces the limits (ResourceQuota added, changed or deleted); charges are kept. */
    public Transition<QuotaState, Boolean> withLimits(QuotaLimits next) {
        QuotaLimits normalised = next == null ? QuotaLimits.NONE : next;
        if (normalised.equals(limits)) {
            return Transition.unchanged(this, false);
        }
        return Transition.to(new QuotaState(namespace, normalised, charges), true);
    }

    /**
     * Charges pod {@code podUid} with {@code mem} MiB and {@code cores} percent until {@code deadlineMillis}
     * ({@link QuotaCharge#NO_DEADLINE} confirms it) if {@link QuotaRule#fits} admits it against the usage of
     * every other live charge. The same amounts again succeed without a re-check and keep the later deadline;
     * other amounts replace the charge if they fit. Exceeded ⇒ the pod's charge is unchanged. A bound charge
     * stays bound.
     */
    public Transition<QuotaState, QuotaOutcome> reserve(String podUid, long mem, long cores, long nowMillis,
                                                       long deadlineMillis) {
        QuotaState base = withoutExpired(nowMillis);
        QuotaCharge own = base.charges.get(podUid);
        if (own != null && own.mem() == mem && own.cores() == cores) {
            long deadline = Math.max(own.deadlineMillis(), deadlineMillis);
            return base.withCharge(podUid, new QuotaCharge(mem, cores, deadline), new QuotaOutcome.Reserved(deadline),
                    this);
        }
        QuotaLimit memory = base.memoryWithout(podUid);
        QuotaLimit core = base.coresWithout(podUid);
        if (!QuotaRule.fits(memory, core, mem, cores)) {
            QuotaOutcome exceeded = new QuotaOutcome.Exceeded(!memory.admits(mem), !core.admits(cores));
            return base == this ? Transition.unchanged(this, exceeded) : Transition.to(base, exceeded);
        }
        long deadline = own != null && own.isBound() ? QuotaCharge.NO_DEADLINE : deadlineMillis;
        return base.withCharge(podUid, new QuotaCharge(mem, cores, deadline), new QuotaOutcome.Reserved(deadline),
                this);
    }

    /** Informer ingest of a bound pod: charges it as bound without a check (a fact, not a decision). */
    public Transition<QuotaState, Boolean> observe(String podUid, long mem, long cores) {
        QuotaCharge bound = new QuotaCharge(mem, cores, QuotaCharge.NO_DEADLINE);
        if (bound.equals(charges.get(podUid))) {
            return Transition.unchanged(this, false);
        }
        return withCharge(podUid, bound, true, this);
    }

    /** Drops pod {@code podUid}'s charge; outcome true when there was one. */
    public Transition<QuotaState, Boolean> release(String podUid) {
        if (!charges.containsKey(podUid)) {
            return Transition.unchanged(this, false);
        }
        Map<String, QuotaCharge> next = new TreeMap<>(charges);
        next.remove(podUid);
        return Transition.to(new QuotaState(namespace, limits, next), true);
    }

    /** Drops every unconfirmed charge past its deadline; outcome: the UIDs dropped, sorted. */
    public Transition<QuotaState, List<String>> expire(long nowMillis) {
        QuotaState next = withoutExpired(nowMillis);
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

    // ---------------------------------------------------------------- helpers

    private QuotaLimit memoryWithout(String podUid) {
        long used = 0;
        for (Map.Entry<String, QuotaCharge> e : charges.entrySet()) {
            if (!e.getKey().equals(podUid)) {
                used += e.getValue().mem();
            }
        }
        return new QuotaLimit(used, limits.memory(), limits.memorySet());
    }

    private QuotaLimit coresWithout(String podUid) {
        long used = 0;
        for (Map.Entry<String, QuotaCharge> e : charges.entrySet()) {
            if (!e.getKey().equals(podUid)) {
                used += e.getValue().cores();
            }
        }
        return new QuotaLimit(used, limits.cores(), limits.coresSet());
    }

    private QuotaState withoutExpired(long nowMillis) {
        if (!hasExpiredAt(nowMillis)) {
            return this;
        }
        Map<String, QuotaCharge> next = new TreeMap<>(charges);
        next.values().removeIf(c -> c.expiredAt(nowMillis));
        return new QuotaState(namespace, limits, next);
    }

    private <O> Transition<QuotaState, O> withCharge(String podUid, QuotaCharge charge, O outcome,
                                                    QuotaState before) {
        if (charge.equals(charges.get(podUid))) {
            return this == before ? Transition.unchanged(this, outcome) : Transition.to(this, outcome);
        }
        Map<String, QuotaCharge> next = new TreeMap<>(charges);
        next.put(podUid, charge);
        return Transition.to(new QuotaState(namespace, limits, next), outcome);
    }
}
