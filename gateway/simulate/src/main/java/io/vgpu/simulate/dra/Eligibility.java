package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.vgpu.simulate.dra.cel.QuantityValue;
import io.vgpu.simulate.dra.cel.SelectorException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The per-device checks of one allocation attempt that do not depend on constraints: the selectors (class
 * selectors first, then the request's; results cached per device × request, as upstream) with per-device
 * node selection, and the capacity rule against what allocated claims and the attempt itself consume.
 */
final class Eligibility {

    private final Node node;
    private final SelectorMemo selectors;
    private final AllocatedState allocated;
    private final Map<List<Object>, Boolean> selectable = new HashMap<>();
    /** Capacity consumed by shares picked in this attempt; an entry marks the device as shared in the attempt. */
    final Map<DeviceId, Map<String, BigDecimal>> allocating = new HashMap<>();

    Eligibility(Node node, SelectorMemo selectors, AllocatedState allocated) {
        this.node = node;
        this.selectors = selectors;
        this.allocated = allocated;
    }

    /** Whether {@code c} passes every selector of {@code spec}; {@code key} names the (sub)request. */
    boolean selectable(ClaimPlan plan, RequestSpec spec, Candidate c, List<Integer> key) {
        List<Object> cacheKey = List.of(c.id(), key);
        Boolean known = selectable.get(cacheKey);
        if (known != null) {
            return known;
        }
        boolean result = matchAll(c, spec.classSelectors(), "class " + spec.deviceClass().getMetadata().getName())
                && matchAll(c, spec.selectors(), "claim " + plan.ref())
                && PoolGatherer.deviceOnNode(c.slice(), c.device(), node);
        selectable.put(cacheKey, result);
        return result;
    }

    /** What one more share of {@code spec} would consume on {@code c}, or empty when it does not fit. */
    Optional<Map<String, QuantityValue>> capacity(RequestSpec spec, Candidate c) {
        Map<String, BigDecimal> used = new HashMap<>(allocated.consumed(c.id()));
        allocating.getOrDefault(c.id(), Map.of()).forEach((name, v) -> used.merge(name, v, BigDecimal::add));
        return ConsumableCapacity.consume(c.capacities(), spec.capacity(), used);
    }

    void addShare(DeviceId id, Map<String, QuantityValue> consumed) {
        Map<String, BigDecimal> sum = allocating.computeIfAbsent(id, k -> new HashMap<>());
        consumed.forEach((name, q) -> sum.merge(name, q.value(), BigDecimal::add));
    }

    void removeShare(DeviceId id, Map<String, QuantityValue> consumed, boolean entryExisted) {
        Map<String, BigDecimal> sum = allocating.get(id);
        consumed.forEach((name, q) -> sum.merge(name, q.value().negate(), BigDecimal::add));
        if (!entryExisted) {
            allocating.remove(id);
        }
    }

    private boolean matchAll(Candidate c, List<String> expressions, String owner) {
        for (int i = 0; i < expressions.size(); i++) {
            try {
                if (!selectors.matches(c.id().driver(), c.device(), expressions.get(i))) {
                    return false;
                }
            } catch (SelectorException e) {
                throw new AllocationError(owner + ": selector #" + i + " on device " + c.id() + ": " + e.getMessage(), e);
            }
        }
        return true;
    }
}
