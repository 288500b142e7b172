package io.vgpu.state.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One capacity of a device (spec/dra-spec.md §1.2): its fixed total and, on a device with
 * {@code allowMultipleAllocations}, the policy by which each share consumes it. The scheduler sums
 * the shares' consumption per capacity and keeps it at or below {@link #value()}.
 *
 * @param value         the total
 * @param requestPolicy how a request consumes it; empty = as requested, or the whole value when not requested
 */
public record DeviceCapacity(Quantity value, Optional<RequestPolicy> requestPolicy) {

    /** Requires a value; a null policy means none. */
    public DeviceCapacity {
        Objects.requireNonNull(value, "value");
        requestPolicy = requestPolicy == null ? Optional.empty() : requestPolicy;
    }

    /**
     * How a request consumes a capacity: a request that does not name it takes {@link #defaultValue()};
     * one that does is rounded up to the next valid value (the smallest of {@link #validValues()} at or
     * above it, or the next {@code min + n·step} of {@link #validRange()}).
     *
     * @param defaultValue what an unrequested capacity consumes; required with either rule
     * @param validValues  ascending, at most 10, containing the default; empty when not this rule
     * @param validRange   the range rule; empty when not this rule
     */
    public record RequestPolicy(Optional<Quantity> defaultValue, List<Quantity> validValues,
                                Optional<ValidRange> validRange) {

        /** Copies the list; nulls mean absent. */
        public RequestPolicy {
            defaultValue = defaultValue == null ? Optional.empty() : defaultValue;
            validValues = validValues == null ? List.of() : List.copyOf(validValues);
            validRange = validRange == null ? Optional.empty() : validRange;
        }

        /** A range rule with a default. */
        public static RequestPolicy range(Quantity defaultValue, ValidRange range) {
            return new RequestPolicy(Optional.of(defaultValue), List.of(), Optional.of(range));
        }

        /** A rule of discrete values with a default. */
        public static RequestPolicy values(Quantity defaultValue, List<Quantity> values) {
            return new RequestPolicy(Optional.of(defaultValue), values, Optional.empty());
        }
    }

    /**
     * The range rule: below {@code min} a request is rounded up to {@code min}; with a step, up to the
     * next {@code min + n·step}; above {@code max} the device is not eligible.
     *
     * @param min  the least consumption
     * @param max  the largest; empty = the capacity's value
     * @param step the grain; empty = any amount
     */
    public record ValidRange(Quantity min, Optional<Quantity> max, Optional<Quantity> step) {

        /** Requires min; nulls mean absent. */
        public ValidRange {
            Objects.requireNonNull(min, "min");
            max = max == null ? Optional.empty() : max;
            step = step == null ? Optional.empty() : step;
        }
    }
}
