package io.vgpu.gateway.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.ParseDuration} syntax, so that durations read like HAMi's flags
 * ({@code --node-lock-timeout=5m}): an optional sign, then one or more decimal numbers each followed by
 * a unit ({@code ns}, {@code us}/{@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}), e.g.
 * {@code 5m}, {@code 28s}, {@code 100ms}, {@code 1h30m}, {@code 1.5s}; a bare {@code 0} is zero.
 * Nanosecond precision; values beyond Go's range (about 292 years) are rejected.
 */
public final class GoDuration {

    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L, "us", 1_000L, "\u00b5s", 1_000L, "\u03bcs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

    private GoDuration() {
    }

    /**
     * @param text e.g. {@code 5m}
     * @return the duration
     * @throws IllegalArgumentException naming the problem when {@code text} is not a Go duration
     */
    public static Duration parse(String text) {
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalid(text);
        }
        BigDecimal total = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int numberStart = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(numberStart, i);
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
                throw invalid(text);
            }
            if (unit.isEmpty()) {
                throw new IllegalArgumentException("missing unit in duration \"" + text
                        + "\" (use ns, us, ms, s, m or h)");
            }
            Long nanos = UNIT_NANOS.get(unit);
            if (nanos == null) {
                throw new IllegalArgumentException("unknown unit \"" + unit + "\" in duration \"" + text
                        + "\" (use ns, us, ms, s, m or h)");
            }
            total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanos)));
        }
        if (total.compareTo(MAX_NANOS) > 0) {
            throw new IllegalArgumentException("duration \"" + text + "\" is out of range");
        }
        long nanos = total.longValue(); // truncates fractions of a nanosecond, as Go does
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    /** The Go spelling of {@code d} for logs, e.g. {@code 5m0s}, {@code 28s}, {@code 100ms}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.compareTo(Duration.ofSeconds(1)) < 0 && !d.isNegative()) {
            long nanos = d.toNanos();
            if (nanos % 1_000_000 == 0) {
                return nanos / 1_000_000 + "ms";
            }
            return nanos % 1_000 == 0 ? nanos / 1_000 + "us" : nanos + "ns";
        }
        StringBuilder out = new StringBuilder(d.isNegative() ? "-" : "");
        Duration a = d.abs();
        long hours = a.toHours();
        long minutes = a.toMinutesPart();
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            out.append(minutes).append('m');
        }
        BigDecimal seconds = BigDecimal.valueOf(a.toSecondsPart()).add(BigDecimal.valueOf(a.toNanosPart(), 9));
        return out.append(seconds.stripTrailingZeros().toPlainString()).append('s').toString();
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid duration \"" + text + "\" (e.g. 5m, 28s, 100ms, 1h30m)");
    }
}
