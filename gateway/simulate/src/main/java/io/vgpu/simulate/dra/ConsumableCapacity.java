package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.vgpu.simulate.dra.cel.QuantityValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The capacity arithmetic of the incubating allocator (spec §3.4), exactly:
 * <pre>
 *   a request naming a capacity the device lacks          → device ineligible
 *   per capacity: use = not requested ? (policy.default ?: value)
 *                     : no policy     ? request
 *                     : validRange    ? max(min, min + ⌈(request − min) / step⌉ · step)   (no step: max(min, request))
 *                     : validValues   ? smallest listed value ≥ request (none: the request itself)
 *   use ≠ default and (use &gt; max, off the step grid, or not listed)  → ineligible
 *   allocated + in attempt + use &gt; value                 → ineligible
 * </pre>
 * It applies to every device, shared or not; only shared devices record the consumption. Pure.
 */
final class ConsumableCapacity {

    private ConsumableCapacity() {
    }

    /**
     * What one more share of {@code requests} would consume of each capacity, or empty when the device is
     * not eligible. {@code used} is the sum already consumed per capacity (allocated claims plus the current
     * attempt); absent names count as zero.
     */
    static Optional<Map<String, QuantityValue>> consume(Map<String, DeviceCapacity> capacities, Map<String, Quantity> requests,
                                                        Map<String, BigDecimal> used) {
        for (String name : requests.keySet()) {
            if (!capacities.containsKey(name)) {
                return Optional.empty();
            }
        }
        Map<String, QuantityValue> consumed = new LinkedHashMap<>();
        for (Map.Entry<String, DeviceCapacity> e : new TreeMap<>(capacities).entrySet()) {
            DeviceCapacity cap = e.getValue();
            Quantity requested = requests.get(e.getKey());
            QuantityValue use = use(requested == null ? null : q(requested), cap);
            if (violatesPolicy(use, cap.getRequestPolicy())) {
                return Optional.empty();
            }
            BigDecimal total = used.getOrDefault(e.getKey(), BigDecimal.ZERO).add(use.value());
            if (total.compareTo(q(cap.getValue()).value()) > 0) {
                return Optional.empty();
            }
            consumed.put(e.getKey(), use);
        }
        return Optional.of(consumed);
    }

    /** What a request of {@code requested} (null: not named) consumes of {@code cap}, before any check. */
    static QuantityValue use(QuantityValue requested, DeviceCapacity cap) {
        CapacityRequestPolicy policy = cap.getRequestPolicy();
        if (requested == null) {
            return policy != null && policy.getDefault() != null ? q(policy.getDefault()) : q(cap.getValue());
        }
        if (policy == null) {
            return requested;
        }
        CapacityRequestPolicyRange range = policy.getValidRange();
        if (range != null && range.getMin() != null) {
            return roundUpRange(requested, range);
        }
        if (!Nulls.list(policy.getValidValues()).isEmpty()) {
            for (Quantity valid : policy.getValidValues()) {
                if (requested.compareTo(q(valid)) <= 0) {
                    return q(valid);
                }
            }
        }
        return requested;
    }

    static boolean violatesPolicy(QuantityValue use, CapacityRequestPolicy policy) {
        if (policy == null) {
            return false;
        }
        if (policy.getDefault() != null && use.equals(q(policy.getDefault()))) {
            return false;
        }
        CapacityRequestPolicyRange range = policy.getValidRange();
        if (range != null) {
            if (range.getMax() != null && use.compareTo(q(range.getMax())) > 0) {
                return true;
            }
            if (range.getStep() != null && range.getMin() != null) {
                BigDecimal span = use.value().subtract(q(range.getMin()).value());
                return span.remainder(q(range.getStep()).value()).signum() != 0;
            }
            return false;
        }
        List<Quantity> valid = Nulls.list(policy.getValidValues());
        return !valid.isEmpty() && valid.stream().noneMatch(v -> use.equals(q(v)));
    }

    private static QuantityValue roundUpRange(QuantityValue requested, CapacityRequestPolicyRange range) {
        QuantityValue min = q(range.getMin());
        if (requested.compareTo(min) < 0) {
            return min;
        }
        if (range.getStep() == null) {
            return requested;
        }
        QuantityValue step = q(range.getStep());
        BigDecimal n = requested.value().subtract(min.value()).divide(step.value(), 0, RoundingMode.CEILING);
        return QuantityValue.of(min.value().add(n.multiply(step.value())), step.binary());
    }

    static QuantityValue q(Quantity quantity) {
        return QuantityValue.parse(quantity.toString());
    }
}
