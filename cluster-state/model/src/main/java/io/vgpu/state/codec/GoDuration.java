package io.vgpu.state.codec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.Duration} text: {@link #format} is {@code Duration.String()} (what {@code %v}
 * prints, e.g. {@code 5m0s} in {@code node x has been locked within 5m0s}) and {@link #parse} is
 * {@code time.ParseDuration} (HAMi's duration flags such as {@code --node-lock-timeout=5m}).
 */
public final class GoDuration {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L, "us", 1_000L, "\u00b5s", 1_000L, "\u03bcs", 1_000L, "ms", 1_000_000L,
            "s", NANOS_PER_SECOND, "m", 60 * NANOS_PER_SECOND, "h", 3600 * NANOS_PER_SECOND);
    private static final BigInteger MAX_NANOS = BigInteger.valueOf(Long.MAX_VALUE);

    private GoDuration() {
    }

    /**
     * Formats {@code d} as Go's {@code Duration.String()}: {@code 0s}, {@code 1.5µs}, {@code 100ms},
     * {@code 28s}, {@code 5m0s}, {@code 1h0m0s}. Durations beyond Go's int64 nanoseconds are clamped.
     */
    public static String format(Duration d) {
        long nanos = toNanosSaturated(d);
        if (nanos == 0) {
            return "0s";
        }
        boolean negative = nanos < 0;
        BigInteger u = BigInteger.valueOf(nanos).abs();
        String body;
        if (u.compareTo(BigInteger.valueOf(NANOS_PER_SECOND)) < 0) {
            long v = u.longValue();
            if (v < 1_000) {
                body = v + "ns";
            } else if (v < 1_000_000) {
                body = fraction(v, 3) + "\u00b5s";
            } else {
                body = fraction(v, 6) + "ms";
            }
        } else {
            body = wholeSeconds(u);
        }
        return negative ? "-" + body : body;
    }

    private static String wholeSeconds(BigInteger u) {
        BigInteger[] secondsAndNanos = u.divideAndRemainder(BigInteger.valueOf(NANOS_PER_SECOND));
        String seconds = secondsAndNanos[0].mod(BigInteger.valueOf(60)) + trimmedFraction(secondsAndNanos[1].longValue(), 9) + "s";
        BigInteger minutes = secondsAndNanos[0].divide(BigInteger.valueOf(60));
        if (minutes.signum() == 0) {
            return seconds;
        }
        BigInteger hours = minutes.divide(BigInteger.valueOf(60));
        String m = minutes.mod(BigInteger.valueOf(60)) + "m" + seconds;
        return hours.signum() == 0 ? m : hours + "h" + m;
    }

    private static String fraction(long v, int precision) {
        long scale = (long) Math.pow(10, precision);
        return (v / scale) + trimmedFraction(v % scale, precision);
    }

    private static String trimmedFraction(long frac, int precision) {
        if (frac == 0) {
            return "";
        }
        String digits = String.format("%0" + precision + "d", frac).replaceFirst("0+$", "");
        return "." + digits;
    }

    /**
     * Parses Go duration text ({@code [-+]?([0-9]*(\.[0-9]*)?unit)+}, units {@code ns us µs ms s m h};
     * a bare {@code 0} is allowed) with Go's error texts, e.g. {@code time: invalid duration "x"}.
     */
    public static Decoded<Duration> parse(String s) {
        if (s == null) {
            return Decoded.err("time: invalid duration \"\"");
        }
        String quoted = GoTime.quote(s);
        String rest = s;
        boolean negative = false;
        if (!rest.isEmpty() && (rest.charAt(0) == '-' || rest.charAt(0) == '+')) {
            negative = rest.charAt(0) == '-';
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Decoded.ok(Duration.ZERO);
        }
        if (rest.isEmpty()) {
            return Decoded.err("time: invalid duration " + quoted);
        }
        BigDecimal total = BigDecimal.ZERO;
        while (!rest.isEmpty()) {
            int i = 0;
            while (i < rest.length() && (Character.isDigit(rest.charAt(i)) && rest.charAt(i) < 0x80)) {
                i++;
            }
            String whole = rest.substring(0, i);
            String frac = "";
            if (i < rest.length() && rest.charAt(i) == '.') {
                int j = i + 1;
                while (j < rest.length() && Character.isDigit(rest.charAt(j)) && rest.charAt(j) < 0x80) {
                    j++;
                }
                frac = rest.substring(i + 1, j);
                i = j;
                if (whole.isEmpty() && frac.isEmpty()) {
                    return Decoded.err("time: invalid duration " + quoted);
                }
            } else if (whole.isEmpty()) {
                return Decoded.err("time: invalid duration " + quoted);
            }
            int u = i;
            while (u < rest.length() && rest.charAt(u) != '.' && !(Character.isDigit(rest.charAt(u)) && rest.charAt(u) < 0x80)) {
                u++;
            }
            if (u == i) {
                return Decoded.err("time: missing unit in duration " + quoted);
            }
            String unit = rest.substring(i, u);
            Long unitNanos = UNIT_NANOS.get(unit);
            if (unitNanos == null) {
                return Decoded.err("time: unknown unit " + GoTime.quote(unit) + " in duration " + quoted);
            }
            BigDecimal number = new BigDecimal((whole.isEmpty() ? "0" : whole) + (frac.isEmpty() ? "" : "." + frac));
            total = total.add(number.multiply(BigDecimal.valueOf(unitNanos)));
            if (total.toBigInteger().compareTo(MAX_NANOS.add(negative ? BigInteger.ONE : BigInteger.ZERO)) > 0) {
                return Decoded.err("time: invalid duration " + quoted);
            }
            rest = rest.substring(u);
        }
        long nanos = total.toBigInteger().longValue(); // fractions of a nanosecond are dropped, as in Go
        return Decoded.ok(Duration.ofNanos(negative ? -nanos : nanos));
    }

    private static long toNanosSaturated(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
