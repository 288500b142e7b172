package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What existing allocations hold (spec §3.1), rebuilt for each pod: for every result of every allocated
 * claim and every in-flight allocation, an admin-access result counts for nothing, a result with a
 * {@code shareID} adds its {@code consumedCapacity} to the device's aggregate (once per share ID, so a
 * claim seen both in flight and written is not counted twice), any other result marks the device as
 * exclusively in use. Immutable once built.
 */
final class AllocatedState {

    private final Set<DeviceId> exclusive = new HashSet<>();
    private final Map<DeviceId, Map<String, Map<String, Quantity>>> shares = new HashMap<>();
    private final Map<DeviceId, Map<String, BigDecimal>> aggregated = new HashMap<>();

    private AllocatedState() {
    }

    static AllocatedState of(Iterable<AllocationResult> allocations) {
        AllocatedState state = new AllocatedState();
        for (AllocationResult allocation : allocations) {
            if (allocation == null || allocation.getDevices() == null) {
                continue;
            }
            for (DeviceRequestAllocationResult r : Nulls.list(allocation.getDevices().getResults())) {
                state.add(r);
            }
        }
        state.shares.forEach((id, byShare) -> {
            Map<String, BigDecimal> sum = new HashMap<>();
            byShare.values().forEach(consumed -> consumed.forEach(
                    (name, q) -> sum.merge(name, ConsumableCapacity.q(q).value(), BigDecimal::add)));
            state.aggregated.put(id, sum);
        });
        return state;
    }

    private void add(DeviceRequestAllocationResult r) {
        if (Boolean.TRUE.equals(r.getAdminAccess())) {
            return;
        }
        DeviceId id = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
        if (r.getShareID() != null && !r.getShareID().isEmpty()) {
            shares.computeIfAbsent(id, k -> new HashMap<>()).put(r.getShareID(), Nulls.map(r.getConsumedCapacity()));
        } else {
            exclusive.add(id);
        }
    }

    /** Whether an allocated claim holds the device exclusively. */
    boolean exclusivelyAllocated(DeviceId id) {
        return exclusive.contains(id);
    }

    /** Consumed capacity per name summed over the device's allocated shares (empty when none). */
    Map<String, BigDecimal> consumed(DeviceId id) {
        return aggregated.getOrDefault(id, Map.of());
    }
}
