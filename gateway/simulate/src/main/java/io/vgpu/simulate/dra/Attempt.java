package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One {@code Allocate(node, claims)} call of the structured allocator: gather the node's pools, resolve
 * each request's class, precompute "all" requests, check the result-size limit, build the constraints,
 * run the {@link Search} and, on success, write one allocation per claim. Classes that do not exist were
 * refused before (PreFilter). Throws {@link AllocationError} for what fails the attempt as a whole.
 */
final class Attempt {

    private final Map<String, DeviceClass> classes;
    private final NodeView view;
    private final Eligibility eligibility;
    private final AllocatedState allocated;

    Attempt(Node node, NodeView view, Map<String, DeviceClass> classes, AllocatedState allocated, SelectorMemo selectors) {
        this.view = view;
        this.classes = classes;
        this.allocated = allocated;
        this.eligibility = new Eligibility(node, selectors, allocated);
    }

    /** The plans with their results filled in when every claim fits, else null. */
    List<ClaimPlan> run(List<ResourceClaim> claims, Supplier<String> shareIds) {
        List<ClaimPlan> plans = new ArrayList<>();
        for (ResourceClaim claim : claims) {
            plans.add(plan(claim, plans.size()));
        }
        return new Search(plans, view.candidates(), eligibility, allocated, shareIds).run() ? plans : null;
    }

    /** Whether some pool of the node was invalid (reported when nothing fits). */
    boolean sawInvalidPool() {
        return view.sawInvalidPool();
    }

    private ClaimPlan plan(ResourceClaim claim, int ci) {
        ClaimPlan plan = new ClaimPlan(claim, List.of(), List.of());
        List<ClaimPlan.Slot> slots = new ArrayList<>();
        long minDevices = 0;
        List<DeviceRequest> requests = Nulls.list(claim.getSpec().getDevices().getRequests());
        for (int ri = 0; ri < requests.size(); ri++) {
            DeviceRequest request = requests.get(ri);
            List<RequestSpec> alternatives = new ArrayList<>();
            if (!Nulls.list(request.getFirstAvailable()).isEmpty()) {
                for (DeviceSubRequest sub : request.getFirstAvailable()) {
                    alternatives.add(RequestSpec.sub(request, sub, classes.get(sub.getDeviceClassName())));
                }
            } else if (request.getExactly() != null) {
                alternatives.add(RequestSpec.exactly(request, classes.get(request.getExactly().getDeviceClassName())));
            } else {
                throw new AllocationError("claim " + plan.ref() + ", request " + request.getName()
                        + ": neither exactly nor firstAvailable (unsupported request type?)");
            }
            ClaimPlan.Slot slot = new ClaimPlan.Slot(alternatives);
            long min = Long.MAX_VALUE;
            for (int s = 0; s < alternatives.size(); s++) {
                RequestSpec spec = alternatives.get(s);
                List<Candidate> all = spec.all() ? allDevices(plan, spec, List.of(ci, ri, s)) : List.of();
                slot.allDevices.put(s, all);
                min = Math.min(min, spec.all() ? all.size() : spec.count());
            }
            minDevices += min;
            slots.add(slot);
        }
        if (minDevices > Search.MAX_RESULTS) {
            throw new AllocationError("claim " + plan.ref() + ": number of requested devices " + minDevices
                    + " exceeds the claim limit of " + Search.MAX_RESULTS);
        }
        return new ClaimPlan(claim, slots, constraints(plan, Nulls.list(claim.getSpec().getDevices().getConstraints())));
    }

    private List<Candidate> allDevices(ClaimPlan plan, RequestSpec spec, List<Integer> key) {
        for (Pool pool : view.pools()) {
            if (pool.incomplete() || pool.invalid()) {
                throw new AllocationError("claim " + plan.ref() + ", request " + spec.fullName()
                        + ": asks for all devices, but resource pool " + pool + " is currently "
                        + (pool.incomplete() ? "being updated" : "invalid"));
            }
        }
        return view.candidates().stream()
                .filter(c -> eligibility.selectable(plan, spec, c, key) && eligibility.capacity(spec, c).isPresent())
                .toList();
    }

    private static List<Constraint> constraints(ClaimPlan plan, List<DeviceConstraint> constraints) {
        List<Constraint> out = new ArrayList<>();
        for (int i = 0; i < constraints.size(); i++) {
            DeviceConstraint c = constraints.get(i);
            List<String> requests = Nulls.list(c.getRequests());
            if (c.getMatchAttribute() != null) {
                out.add(Constraint.matchAttribute(requests, c.getMatchAttribute()));
            } else if (c.getDistinctAttribute() != null) {
                out.add(Constraint.distinctAttribute(requests, c.getDistinctAttribute()));
            } else {
                throw new AllocationError("claim " + plan.ref() + ", constraint #" + i
                        + ": empty constraint (unsupported constraint type?)");
            }
        }
        return out;
    }
}
