package io.vgpu.state.dra;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes {@code resource.Quantity} as DRA capacities carry it (spec/dra-spec.md §1): an exact
 * number with the text it was written as. Two quantities are {@link #equals equal} when their numbers
 * are, whatever the text: the API server may hand {@code 85899345920} back as {@code 80Gi}.
 *
 * <p>Grammar (apimachinery's): a signed decimal number, then a binary suffix ({@code Ki Mi Gi Ti Pi Ei}),
 * a decimal suffix ({@code n u m k M G T P E}) or a decimal exponent ({@code e3}, {@code E-2}).
 * Immutable and thread-safe.
 */
public final class Quantity implements Comparable<Quantity> {

    private static final Pattern SYNTAX =
            Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))([eE][+-]?[0-9]{1,3}|[KMGTPE]i|[numkMGTPE]?)");
    private static final Pattern EXPONENT = Pattern.compile("[eE][+-]?[0-9]+");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE), Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")), Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")), Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")), Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)));
    private static final String[] BINARY = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    private static final int MAX_TEXT = 64;

    private final BigDecimal number;
    private final String text;

    private Quantity(BigDecimal number, String text) {
        this.number = number;
        this.text = text;
    }

    /**
     * Parses Kubernetes quantity syntax.
     *
     * @throws IllegalArgumentException naming the text when it is not a quantity
     */
    public static Quantity parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("not a quantity: \"" + text + "\"");
        }
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a quantity: \"" + text + "\"");
        }
        BigDecimal mantissa = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        String suffix = m.group(2);
        BigDecimal scale = EXPONENT.matcher(suffix).matches()
                ? BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)))
                : SUFFIXES.get(suffix);
        return new Quantity(mantissa.multiply(scale), text);
    }

    /** A plain integer, written in decimal ({@code 100}, {@code 1000}). */
    public static Quantity of(long value) {
        return new Quantity(BigDecimal.valueOf(value), Long.toString(value));
    }

    /**
     * A byte count written as the API server writes a binary quantity: the largest binary suffix whose
     * mantissa is a whole number ({@code 42949672960} → {@code 40Gi}, {@code 1048576} → {@code 1Mi},
     * {@code 1536 MiB} → {@code 1536Mi}); a count that is no multiple of 1024 is written plainly.
     *
     * @throws IllegalArgumentException for a negative count
     */
    public static Quantity bytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("byte count must not be negative: " + bytes);
        }
        for (String suffix : BINARY) {
            long unit = SUFFIXES.get(suffix).longValueExact();
            if (bytes != 0 && bytes % unit == 0) {
                return new Quantity(BigDecimal.valueOf(bytes), (bytes / unit) + suffix);
            }
        }
        return of(bytes);
    }

    /** The exact number. */
    public BigDecimal number() {
        return number;
    }

    /** True when the number is a whole number. */
    public boolean isInteger() {
        return number.signum() == 0 || number.stripTrailingZeros().scale() <= 0;
    }

    /**
     * The number as a whole {@code long}.
     *
     * @throws ArithmeticException when it has a fraction or does not fit
     */
    public long longValueExact() {
        return number.stripTrailingZeros().toBigIntegerExact().longValueExact();
    }

    /** True when {@code (this - origin)} is a whole multiple of {@code step} (step &gt; 0). */
    public boolean onGrid(Quantity origin, Quantity step) {
        if (step.number.signum() <= 0) {
            return false;
        }
        return number.subtract(origin.number).remainder(step.number).signum() == 0;
    }

    /** {@code this + other}, written as a plain number. */
    public Quantity plus(Quantity other) {
        BigDecimal sum = number.add(other.number);
        return new Quantity(sum, sum.stripTrailingZeros().toPlainString());
    }

    /** The text as written (or as the API server wrote it). */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public int compareTo(Quantity other) {
        return number.compareTo(other.number);
    }

    /** Numeric equality: {@code 80Gi} equals {@code 85899345920}. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && number.compareTo(q.number) == 0;
    }

    @Override
    public int hashCode() {
        BigDecimal n = number.stripTrailingZeros();
        return Objects.hash(n.unscaledValue(), n.scale());
    }
}
