package io.vgpu.simulate.dra.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes {@code resource.Quantity} as an exact number: what CEL's {@code quantity(...)} returns, what
 * {@code device.capacity} holds, and what the allocator's capacity arithmetic (spec §3.4) adds up.
 *
 * <p>Parsing follows apimachinery's grammar: a signed decimal number followed by a binary suffix
 * ({@code Ki Mi Gi Ti Pi Ei}), a decimal suffix ({@code n u m k M G T P E}) or a decimal exponent
 * ({@code e3}, {@code E-2}). Like apimachinery, a value finer than 10⁻⁹ is rounded up to the next nano.
 * Values compare numerically ({@code 1Gi} equals {@code 1073741824}); {@link #equals} follows.
 * Immutable and thread-safe.
 */
public final class QuantityValue implements Comparable<QuantityValue> {

    private static final Pattern SYNTAX =
            Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))([eE][+-]?[0-9]+|[KMGTPE]i|[numkMGTPE]?)");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE), Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")), Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")), Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)), Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)), Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)));
    private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DECIMAL = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    private static final int NANO_SCALE = 9;
    private static final int MAX_DIGITS = 64;
    /** Parsed texts: slices and claims repeat a handful of quantities millions of times in a simulation. */
    private static final Map<String, QuantityValue> PARSED = new ConcurrentHashMap<>();
    private static final int PARSED_LIMIT = 4096;

    private final BigDecimal value;
    private final boolean binary;

    private QuantityValue(BigDecimal value, boolean binary) {
        this.value = value;
        this.binary = binary;
    }

    /**
     * Parses Kubernetes quantity syntax.
     *
     * @throws IllegalArgumentException with the offending text when {@code text} is not a quantity
     */
    public static QuantityValue parse(String text) {
        QuantityValue known = text == null ? null : PARSED.get(text);
        if (known != null) {
            return known;
        }
        QuantityValue parsed = parseText(text);
        if (PARSED.size() >= PARSED_LIMIT) {
            PARSED.clear();
        }
        PARSED.put(text, parsed);
        return parsed;
    }

    private static QuantityValue parseText(String text) {
        if (text == null || text.length() > MAX_DIGITS) {
            throw new IllegalArgumentException("not a quantity: " + text);
        }
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a quantity: '" + text + "'");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2);
        BigDecimal scaled;
        if (!suffix.isEmpty() && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            int exponent = Integer.parseInt(suffix.substring(1));
            if (Math.abs(exponent) > 100) {
                throw new IllegalArgumentException("quantity exponent out of range: '" + text + "'");
            }
            scaled = number.scaleByPowerOfTen(exponent);
        } else {
            scaled = number.multiply(SUFFIXES.get(suffix));
        }
        return of(scaled, suffix.endsWith("i"));
    }

    /** Whether {@code text} parses as a quantity (CEL's {@code isQuantity}). */
    public static boolean isQuantity(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A quantity of this exact value; {@code binary} chooses the suffix family {@link #toString} prints. */
    public static QuantityValue of(BigDecimal value, boolean binary) {
        BigDecimal v = value.scale() > NANO_SCALE ? value.setScale(NANO_SCALE, RoundingMode.CEILING) : value;
        return new QuantityValue(v, binary);
    }

    /** The exact value. */
    public BigDecimal value() {
        return value;
    }

    /** Whether the source used a binary suffix (so {@link #toString} prints {@code Mi}, {@code Gi}, …). */
    public boolean binary() {
        return binary;
    }

    /** −1, 0 or 1 as this is less than, equal to or greater than {@code other}. */
    @Override
    public int compareTo(QuantityValue other) {
        return value.compareTo(other.value);
    }

    /** The sum, in this quantity's suffix family. */
    public QuantityValue add(QuantityValue other) {
        return of(value.add(other.value), binary);
    }

    /** The difference, in this quantity's suffix family. */
    public QuantityValue subtract(QuantityValue other) {
        return of(value.subtract(other.value), binary);
    }

    /** −1, 0 or 1. */
    public int sign() {
        return value.signum();
    }

    /** Whether the value is a whole number that fits a signed 64-bit integer (apimachinery's {@code AsInt64}). */
    public boolean isInteger() {
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            return false;
        }
        BigInteger whole = value.toBigInteger();
        return whole.bitLength() < 64;
    }

    /**
     * The value as a long.
     *
     * @throws ArithmeticException when it is fractional or does not fit 64 bits
     */
    public long asLong() {
        if (!isInteger()) {
            throw new ArithmeticException("cannot convert quantity " + this + " to a 64-bit integer");
        }
        return value.longValueExact();
    }

    /** The nearest double. */
    public double asApproximateDouble() {
        return value.doubleValue();
    }

    /**
     * Canonical text: the largest suffix of the family that keeps the mantissa whole ({@code 3815Mi},
     * {@code 4Gi}, {@code 100}, {@code 500m}); a binary quantity that is fractional or not a multiple of
     * 1024 prints with decimal suffixes, as apimachinery does.
     */
    @Override
    public String toString() {
        BigDecimal v = value.stripTrailingZeros();
        if (binary && v.scale() <= 0 && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0) {
            for (int i = BINARY.length - 1; i >= 1; i--) {
                BigDecimal[] qr = v.divideAndRemainder(SUFFIXES.get(BINARY[i]));
                if (qr[1].signum() == 0 && qr[0].signum() != 0) {
                    return qr[0].toBigInteger() + BINARY[i];
                }
            }
        }
        if (v.signum() == 0) {
            return "0";
        }
        for (int i = DECIMAL.length - 1; i >= 0; i--) {
            BigDecimal mantissa = v.divide(SUFFIXES.get(DECIMAL[i]));
            if (mantissa.stripTrailingZeros().scale() <= 0) {
                return mantissa.toBigInteger() + DECIMAL[i];
            }
        }
        return v.toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuantityValue q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }
}
