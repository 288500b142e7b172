package io.vgpu.gateway.core.request;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.OptionalLong;

/**
 * A Kubernetes resource quantity ({@code k8s.io/apimachinery/pkg/api/resource.Quantity}) reduced to
 * what HAMi asks of it: {@link #asInt64()} ({@code Quantity.AsInt64}) and {@link #value()}
 * ({@code Quantity.Value}). Parsing never throws: a string Kubernetes would reject is an
 * {@link Invalid} value carrying Kubernetes' error text.
 *
 * <p>Semantics reproduced from {@code ParseQuantity}:
 * <ul>
 *   <li>{@code <sign?><digits>[.<digits>]<suffix>}; suffixes {@code n u m "" k M G T P E} (powers of
 *       ten), {@code Ki Mi Gi Ti Pi Ei} (powers of two), {@code e<int>}/{@code E<int>} (exponent).
 *       Surrounding white space is ignored, as the JSON decoder trims it.</li>
 *   <li>{@code AsInt64} succeeds only on Kubernetes' "fast path": at most 18 significant digits, a
 *       non-negative decimal scale once the fraction is shifted in, no overflow, and for binary
 *       suffixes no fraction and a small enough mantissa. So {@code "1"}, {@code "1k"}, {@code "1.5k"},
 *       {@code "1e3"}, {@code "16Gi"} (= 17179869184) are integers, while {@code "500m"},
 *       {@code "1.0"}, {@code "1000m"}, {@code "0.5Ki"}, {@code "1Ei"}, {@code "1e19"} are not, even
 *       where the number happens to be whole.</li>
 *   <li>{@code Value} is the value rounded up to an integer (ceiling): {@code "500m"} → 1,
 *       {@code "1.5"} → 2, {@code "-1.5"} → -1. Where Go would overflow silently, this saturates at
 *       {@link Long#MIN_VALUE}/{@link Long#MAX_VALUE}.</li>
 * </ul>
 */
public sealed interface Quantity permits Quantity.Valid, Quantity.Invalid {

    /** Kubernetes' {@code ErrFormatWrong} text. */
    String FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    /** Kubernetes' {@code ErrNumeric} text. */
    String NUMERIC = "unable to parse numeric part of quantity";
    /** Kubernetes' {@code ErrSuffix} text. */
    String SUFFIX = "unable to parse quantity's suffix";

    /**
     * Parses a quantity string as it appears in a pod spec.
     *
     * @param text the string; null is treated as ""
     * @return a {@link Valid} quantity or an {@link Invalid} one with the Kubernetes error text
     */
    static Quantity parse(String text) {
        return QuantityParser.parse(text == null ? "" : text);
    }

    /** The original string. */
    String text();

    /** Whether Kubernetes accepts the string. */
    boolean isValid();

    /** {@code AsInt64()}: the exact integer value when Kubernetes' fast conversion succeeds; empty otherwise. */
    OptionalLong asInt64();

    /** {@code Value()}: the value rounded up to an integer; empty when the string is invalid. */
    OptionalLong value();

    /**
     * The canonical string Kubernetes writes for {@code resource.NewQuantity(n, BinarySI)}: plain
     * decimal below 1024 in magnitude, else the largest whole power-of-1024 suffix
     * ({@code 1024} → {@code "1Ki"}, {@code 1536} → {@code "1536"}).
     */
    static String binarySI(long n) {
        if (n > -1024 && n < 1024) {
            return Long.toString(n);
        }
        String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        long mantissa = n;
        int exp = 0;
        while (exp < suffixes.length - 1 && mantissa % 1024 == 0) {
            mantissa /= 1024;
            exp++;
        }
        return mantissa + suffixes[exp];
    }

    /**
     * A quantity Kubernetes accepts.
     *
     * @param text   the original string
     * @param amount the numeric value (after Kubernetes' rounding of sub-nano fractions away from
     *               zero; magnitudes beyond {@code 10^(2^31)} are clamped)
     * @param exact  whether {@code AsInt64} succeeds (then {@code amount} is that integer)
     */
    record Valid(String text, BigDecimal amount, boolean exact) implements Quantity {

        private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
        private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public OptionalLong asInt64() {
            return exact ? OptionalLong.of(amount.longValueExact()) : OptionalLong.empty();
        }

        @Override
        public OptionalLong value() {
            if (amount.signum() == 0) {
                return OptionalLong.of(0);
            }
            // compare magnitudes before rounding: setScale(0) of 1E+2000000000 would expand it
            long integerDigits = (long) amount.precision() - amount.scale();
            if (integerDigits > 19) {
                return OptionalLong.of(amount.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            BigDecimal ceil = amount.setScale(0, RoundingMode.CEILING);
            if (ceil.compareTo(MAX) > 0) {
                return OptionalLong.of(Long.MAX_VALUE);
            }
            if (ceil.compareTo(MIN) < 0) {
                return OptionalLong.of(Long.MIN_VALUE);
            }
            return OptionalLong.of(ceil.longValueExact());
        }
    }

    /**
     * A string Kubernetes rejects.
     *
     * @param text   the original string
     * @param reason Kubernetes' error text ({@link #FORMAT_WRONG}, {@link #NUMERIC} or {@link #SUFFIX})
     */
    record Invalid(String text, String reason) implements Quantity {

        @Override
        public boolean isValid() {
            return false;
        }

        @Override
        public OptionalLong asInt64() {
            return OptionalLong.empty();
        }

        @Override
        public OptionalLong value() {
            return OptionalLong.empty();
        }
    }
}
