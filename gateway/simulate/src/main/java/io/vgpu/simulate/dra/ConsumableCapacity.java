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
 * It applies to every device, shared or not; only shared devices record the consumption. Pure; works on
 * {@link Capacity}, a device capacity parsed once.
 */
final class ConsumableCapacity {

    private ConsumableCapacity() {
    }

    /** One published capacity with its request policy, as numbers (null where the field is unset). */
    record Capacity(QuantityValue value, QuantityValue dflt, QuantityValue min, QuantityValue max, QuantityValue step,
                    List<QuantityValue> validValues, boolean hasPolicy) {

        static Capacity of(DeviceCapacity cap) {
            CapacityRequestPolicy p = cap.getRequestPolicy();
            CapacityRequestPolicyRange r = p == null ? null : p.getValidRange();
            return new Capacity(q(cap.getValue()), p == null ? null : q(p.getDefault()), r == null ? null : q(r.getMin()),
                    r == null ? null : q(r.getMax()), r == null ? null : q(r.getStep()),
                    p == null ? List.of() : Nulls.list(p.getValidValues()).stream().map(ConsumableCapacity::q).toList(),
                    p != null);
        }

        boolean hasRange() {
            return min != null;
        }
    }

    /** The capacities of a device, parsed, in name order. */
    static Map<String, Capacity> parse(Map<String, DeviceCapacity> capacities) {
        Map<String, Capacity> parsed = new TreeMap<>();
        capacities.forEach((name, cap) -> parsed.put(name, Capacity.of(cap)));
        return parsed;
    }

    /**
     * What one more share of {@code requests} would consume of each capacity, or empty when the device is
     * not eligible. {@code used} is the sum already consumed per capacity (allocated claims plus the current
     * attempt); absent names count as zero.
     */
    static Optional<Map<String, QuantityValue>> consume(Map<String, Capacity> capacities, Map<String, Quantity> requests,
                                                        Map<String, BigDecimal> used) {
        for (String name : requests.keySet()) {
            if (!capacities.containsKey(name)) {
                return Optional.empty();
            }
        }
        Map<String, QuantityValue> consumed = new LinkedHashMap<>();
        for (Map.Entry<String, Capacity> e : capacities.entrySet()) {
            Capacity cap = e.getValue();
            Quantity requested = requests.get(e.getKey());
            QuantityValue use = use(requested == null ? null : q(requested), cap);
            if (violatesPolicy(use, cap)) {
                return Optional.empty();
            }
            BigDecimal total = used.getOrDefault(e.getKey(), BigDecimal.ZERO).add(use.value());
            if (total.compareTo(cap.value().value()) > 0) {
                return Optional.empty();
            }
            consumed.put(e.getKey(), use);
        }
        return Optional.of(consumed);
    }

    /** What a request of {@code requested} (null: not named) consumes of {@code cap}, before any check. */
    static QuantityValue use(QuantityValue requested, DeviceCapacity cap) {
        return use(requested, Capacity.of(cap));
    }

    static QuantityValue use(QuantityValue requested, Capacity cap) {
        if (requested == null) {
            return cap.dflt() != null ? cap.dflt() : cap.value();
        }
        if (!cap.hasPolicy()) {
            return requested;
        }
        if (cap.hasRange()) {
            return roundUpRange(requested, cap);
        }
        for (QuantityValue valid : cap.validValues()) {
            if (requested.compareTo(valid) <= 0) {
                return valid;
            }
        }
        return requested;
    }

    private static boolean violatesPolicy(QuantityValue use, Capacity cap) {
        if (!cap.hasPolicy() || use.equals(cap.dflt())) {
            return false;
        }
        if (cap.hasRange()) {
            if (cap.max() != null && use.compareTo(cap.max()) > 0) {
                return true;
            }
            return cap.step() != null && use.value().subtract(cap.min().value()).remainder(cap.step().value()).signum() != 0;
        }
        return !cap.validValues().isEmpty() && !cap.validValues().contains(use);
    }

    private static QuantityValue roundUpRange(QuantityValue requested, Capacity cap) {
        if (requested.compareTo(cap.min()) < 0) {
            return cap.min();
        }
        if (cap.step() == null) {
            return requested;
        }
        BigDecimal step = cap.step().value();
        BigDecimal n = requested.value().subtract(cap.min().value()).divide(step, 0, RoundingMode.CEILING);
        return QuantityValue.of(cap.min().value().add(n.multiply(step)), cap.step().binary());
    }

    /** A fabric8 quantity as a number; null stays null. */
    static QuantityValue q(Quantity quantity) {
        return quantity == null ? null : QuantityValue.parse(quantity.toString());
    }
}
