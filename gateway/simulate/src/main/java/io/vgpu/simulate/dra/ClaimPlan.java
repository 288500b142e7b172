package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One claim being allocated: per request its alternatives (one for {@code exactly}, the subrequests in
 * order for {@code firstAvailable}), its constraints, and the search's picks so far.
 */
final class ClaimPlan {

    final ResourceClaim claim;
    final List<Slot> slots;
    final List<Constraint> constraints;
    final List<DeviceResult> results = new ArrayList<>();

    ClaimPlan(ResourceClaim claim, List<Slot> slots, List<Constraint> constraints) {
        this.claim = claim;
        this.slots = List.copyOf(slots);
        this.constraints = List.copyOf(constraints);
    }

    String ref() {
        return claim.getMetadata().getNamespace() + "/" + nameOf(claim);
    }

    static String nameOf(ResourceClaim claim) {
        String name = claim.getMetadata().getName();
        return name != null ? name : claim.getMetadata().getGenerateName() + "<generated>";
    }

    /** A request's alternatives; {@code selected} is the subrequest the solution used. */
    static final class Slot {
        final List<RequestSpec> alternatives;
        final Map<Integer, List<Candidate>> allDevices = new HashMap<>();
        int selected;

        Slot(List<RequestSpec> alternatives) {
            this.alternatives = List.copyOf(alternatives);
        }

        RequestSpec chosen() {
            return alternatives.get(selected);
        }
    }
}
