package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What existing allocations hold (spec §3.1): for every result of every allocated claim and every
 * in-flight allocation, an admin-access result counts for nothing, a result with a {@code shareID} adds
 * its {@code consumedCapacity} to the device's aggregate — once per share ID, so a claim seen both in
 * flight and written is not counted twice — and any other result marks the device as exclusively in use.
 *
 * <p>Kept up to date by {@link #add} and {@link #remove} (reference-counted, so each must be called with
 * the same allocation once per holder) rather than rebuilt for every pod as upstream does: same answers,
 * without re-reading every claim of the cluster. Not thread-safe.
 */
final class AllocatedState {

    private final Map<DeviceId, Integer> exclusive = new HashMap<>();
    private final Map<List<Object>, Integer> shareHolders = new HashMap<>();
    private final Map<DeviceId, Map<String, BigDecimal>> aggregated = new HashMap<>();

    /** A state holding {@code allocations}. */
    static AllocatedState of(Iterable<AllocationResult> allocations) {
        AllocatedState state = new AllocatedState();
        allocations.forEach(state::add);
        return state;
    }

    /** Counts one more holder of {@code allocation} (null is ignored). */
    void add(AllocationResult allocation) {
        results(allocation).forEach(r -> change(r, 1));
    }

    /** Drops one holder of {@code allocation} (null is ignored). */
    void remove(AllocationResult allocation) {
        results(allocation).forEach(r -> change(r, -1));
    }

    /** Whether an allocated claim holds the device exclusively. */
    boolean exclusivelyAllocated(DeviceId id) {
        return exclusive.containsKey(id);
    }

    /** Consumed capacity per name summed over the device's allocated shares (empty when none). */
    Map<String, BigDecimal> consumed(DeviceId id) {
        return aggregated.getOrDefault(id, Map.of());
    }

    private static List<DeviceRequestAllocationResult> results(AllocationResult allocation) {
        return allocation == null || allocation.getDevices() == null ? List.of() : Nulls.list(allocation.getDevices().getResults());
    }

    private void change(DeviceRequestAllocationResult r, int delta) {
        if (Boolean.TRUE.equals(r.getAdminAccess())) {
            return;
        }
        DeviceId id = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
        if (r.getShareID() == null || r.getShareID().isEmpty()) {
            exclusive.merge(id, delta, (a, b) -> a + b == 0 ? null : a + b);
            return;
        }
        List<Object> share = List.of(id, r.getShareID());
        int before = shareHolders.getOrDefault(share, 0);
        int after = before + delta;
        if (after <= 0) {
            shareHolders.remove(share);
        } else {
            shareHolders.put(share, after);
        }
        if (before == 0 && after > 0 || before > 0 && after <= 0) {
            Map<String, BigDecimal> sum = aggregated.computeIfAbsent(id, k -> new HashMap<>());
            for (Map.Entry<String, Quantity> e : Nulls.map(r.getConsumedCapacity()).entrySet()) {
                BigDecimal v = ConsumableCapacity.q(e.getValue()).value();
                sum.merge(e.getKey(), delta > 0 ? v : v.negate(), BigDecimal::add);
            }
        }
    }
}
