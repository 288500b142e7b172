package io.vgpu.simulate.dra;

import io.vgpu.simulate.dra.cel.QuantityValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The backtracking search of kube-scheduler's structured allocator (spec §3.3.4, §3.7): claims in order,
 * requests in order, devices one at a time in pool / slice / device order; the 2nd+ device of a request
 * starts after the previous pick (combinations, not permutations); a {@code firstAvailable} request tries
 * its subrequests in order; the first complete solution wins. A candidate is taken when, in this order, it
 * is not in use (shared devices never are), its selectors pass, its capacity fits, its taints are
 * tolerated and every constraint of the claim accepts it; a dead end undoes the pick and tries the next.
 * Single use: one instance per attempt.
 */
final class Search {

    /** Upstream's {@code AllocationResultsMaxSize}. */
    static final int MAX_RESULTS = 32;

    private final List<ClaimPlan> plans;
    private final List<Candidate> candidates;
    private final Eligibility eligibility;
    private final Supplier<String> shareIds;
    private final Map<DeviceId, Set<Integer>> exclusive = new HashMap<>();
    private final AllocatedState allocated;

    Search(List<ClaimPlan> plans, List<Candidate> candidates, Eligibility eligibility, AllocatedState allocated,
           Supplier<String> shareIds) {
        this.plans = plans;
        this.candidates = candidates;
        this.eligibility = eligibility;
        this.allocated = allocated;
        this.shareIds = shareIds;
    }

    /** Runs the search; true when every claim got all its devices (then read each plan's results). */
    boolean run() {
        return place(0, 0, -1, 0, 0);
    }

    private boolean place(int ci, int ri, int sub, int k, int start) {
        if (ci == plans.size()) {
            return true;
        }
        ClaimPlan plan = plans.get(ci);
        if (ri == plan.slots.size()) {
            return place(ci + 1, 0, -1, 0, 0);
        }
        ClaimPlan.Slot slot = plan.slots.get(ri);
        if (sub < 0) {
            for (int s = 0; s < slot.alternatives.size(); s++) {
                if (place(ci, ri, s, 0, 0)) {
                    slot.selected = s;
                    return true;
                }
            }
            return false;
        }
        RequestSpec spec = slot.alternatives.get(sub);
        List<Candidate> all = slot.allDevices.get(sub);
        if (spec.all() && all.isEmpty()) {
            return false;
        }
        long need = spec.all() ? all.size() : spec.count();
        if (k >= need) {
            return place(ci, ri + 1, -1, 0, 0);
        }
        if (plan.results.size() + need - k > MAX_RESULTS) {
            return false;
        }
        List<Integer> key = List.of(ci, ri, sub);
        if (spec.all()) {
            Runnable undo = take(ci, spec, all.get(k), true);
            if (undo == null) {
                return false;
            }
            if (place(ci, ri, sub, k + 1, 0)) {
                return true;
            }
            undo.run();
            return false;
        }
        for (int pos = start; pos < candidates.size(); pos++) {
            Candidate c = candidates.get(pos);
            if (!c.pool().usable() || inUse(ci, spec, c) || !eligibility.selectable(plan, spec, c, key)
                    || eligibility.capacity(spec, c).isEmpty()) {
                continue;
            }
            Runnable undo = take(ci, spec, c, false);
            if (undo == null) {
                continue;
            }
            if (place(ci, ri, sub, k + 1, pos + 1)) {
                return true;
            }
            undo.run();
        }
        return false;
    }

    private boolean inUse(int ci, RequestSpec spec, Candidate c) {
        if (spec.adminAccess()) {
            return !c.shared() && exclusive.getOrDefault(c.id(), Set.of()).contains(ci);
        }
        return allocated.exclusivelyAllocated(c.id()) || !exclusive.getOrDefault(c.id(), Set.of()).isEmpty();
    }

    /**
     * Takes {@code c} for {@code spec} if taints, constraints and capacity allow; returns the undo, or null
     * (nothing changed) when it cannot. With {@code must} (All mode) a constraint that rejects the device
     * is an error, as upstream: such a claim can never be satisfied.
     */
    private Runnable take(int ci, RequestSpec spec, Candidate c, boolean must) {
        ClaimPlan plan = plans.get(ci);
        if (inUse(ci, spec, c) || Taints.prevent(c.device(), spec.tolerations())) {
            return null;
        }
        List<Constraint> added = new ArrayList<>();
        for (Constraint constraint : plan.constraints) {
            if (!constraint.add(spec.baseName(), spec.subName(), c.id(), c.device())) {
                undoConstraints(added, spec, c);
                if (must) {
                    throw new AllocationError("claim " + plan.ref() + ", request " + spec.fullName() + ": cannot add device "
                            + c.id() + " because a claim constraint would not be satisfied");
                }
                return null;
            }
            added.add(constraint);
        }
        Optional<Map<String, QuantityValue>> consumed = eligibility.capacity(spec, c);
        if (consumed.isEmpty()) {
            undoConstraints(added, spec, c);
            return null;
        }
        boolean shared = c.shared();
        boolean entryExisted = eligibility.allocating.containsKey(c.id());
        String shareId = null;
        if (shared) {
            shareId = shareIds.get();
            eligibility.addShare(c.id(), consumed.get());
        } else {
            exclusive.computeIfAbsent(c.id(), id -> new HashSet<>()).add(ci);
        }
        plan.results.add(new DeviceResult(spec, c, shareId, shared ? consumed.get() : null));
        return () -> {
            plan.results.remove(plan.results.size() - 1);
            if (shared) {
                eligibility.removeShare(c.id(), consumed.get(), entryExisted);
            } else {
                exclusive.get(c.id()).remove(ci);
            }
            undoConstraints(added, spec, c);
        };
    }

    private static void undoConstraints(List<Constraint> added, RequestSpec spec, Candidate c) {
        for (int i = added.size() - 1; i >= 0; i--) {
            added.get(i).remove(spec.baseName(), spec.subName(), c.id(), c.device());
        }
    }
}
