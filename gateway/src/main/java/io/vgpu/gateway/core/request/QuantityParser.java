package io.vgpu.gateway.core.request;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Port of Kubernetes' {@code ParseQuantity} (apimachinery {@code resource/quantity.go}): the byte
 * scanner, the suffix table and the choice between the exact int64 "fast path" and the decimal
 * path. Only the numeric outcome is kept (no canonical formatting). Never throws.
 */
final class QuantityParser {

    /** {@code maxInt64Factors}: significant digits the fast path accepts. */
    private static final int MAX_INT64_FACTORS = 18;
    /** {@code Nano}: the smallest scale Kubernetes keeps. */
    private static final int NANO = -9;
    private static final BigDecimal ONE_NANO = BigDecimal.valueOf(1, 9);
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);

    private QuantityParser() {
    }

    static Quantity parse(String raw) {
        String str = goTrimSpace(raw);
        if (str.isEmpty()) {
            return new Quantity.Invalid(raw, Quantity.FORMAT_WRONG);
        }
        if (str.equals("0")) {
            return new Quantity.Valid(raw, BigDecimal.ZERO, true);
        }
        Scan scan = scan(str);
        if (scan == null) {
            return new Quantity.Invalid(raw, Quantity.FORMAT_WRONG);
        }
        Suffix suffix = Suffix.interpret(scan.suffix);
        if (suffix == null) {
            return new Quantity.Invalid(raw, Quantity.SUFFIX);
        }
        Quantity fast = fastPath(raw, scan, suffix);
        return fast != null ? fast : decimalPath(raw, scan, suffix);
    }

    /** The int64 path; null when Kubernetes would fall back to the decimal path. */
    private static Quantity fastPath(String raw, Scan scan, Suffix suffix) {
        int precision;
        long scale;
        long mantissa = 1;
        if (suffix.base == 10) {
            scale = suffix.exponent;
            precision = MAX_INT64_FACTORS - (scan.num.length() + scan.denom.length());
        } else if (suffix.exponent >= 0 && scan.denom.isEmpty()) {
            scale = 0;
            mantissa = 1L << suffix.exponent;
            // 1Mi (2^20) has ~6 digits of decimal precision: exponent*3/10 - 1 (Kubernetes' estimate)
            precision = 15 - scan.num.length() - (int) ((float) suffix.exponent * 3 / 10) - 1;
        } else {
            return null;
        }
        if (precision < 0) {
            return null;
        }
        scale -= scan.denom.length();
        if (scale < NANO) {
            return null;
        }
        long shifted;
        try {
            shifted = Long.parseLong(scan.num + scan.denom);
        } catch (NumberFormatException e) {
            return new Quantity.Invalid(raw, Quantity.NUMERIC);
        }
        long result;
        try {
            result = Math.multiplyExact(shifted, mantissa);
        } catch (ArithmeticException overflow) {
            return null;
        }
        if (!scan.positive) {
            result = -result;
        }
        BigDecimal amount = BigDecimal.valueOf(result, (int) -scale);
        return new Quantity.Valid(raw, amount, scale >= 0 && fitsInt64(amount));
    }

    private static boolean fitsInt64(BigDecimal integral) {
        if (integral.signum() == 0) {
            return true;
        }
        long digits = (long) integral.precision() - integral.scale();
        return digits <= 19 && integral.compareTo(MAX_ALLOWED) <= 0
                && integral.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0;
    }

    /** The {@code inf.Dec} path: exact value, sub-nano fractions rounded away from zero; never int64. */
    private static Quantity decimalPath(String raw, Scan scan, Suffix suffix) {
        BigDecimal amount;
        try {
            amount = new BigDecimal(scan.value);
        } catch (NumberFormatException e) {
            return new Quantity.Invalid(raw, Quantity.NUMERIC);
        }
        int sign = amount.signum();
        BigDecimal abs = amount.abs();
        if (suffix.base == 10) {
            long newScale = (long) abs.scale() - suffix.exponent;
            newScale = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, newScale));
            abs = new BigDecimal(abs.unscaledValue(), (int) newScale);
        } else {
            abs = abs.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(suffix.exponent)));
        }
        if (abs.signum() != 0) {
            long adjusted = (long) abs.precision() - abs.scale();
            if (adjusted < NANO - 1) {
                abs = ONE_NANO; // rounding a tiny value up to the nano scale, without expanding it
            } else if (abs.scale() > -NANO) {
                abs = abs.setScale(-NANO, RoundingMode.UP);
            }
        }
        if (suffix.base == 2 && abs.compareTo(MAX_ALLOWED) > 0) {
            abs = MAX_ALLOWED;
        }
        return new Quantity.Valid(raw, sign < 0 ? abs.negate() : abs, false);
    }

    /** Go's {@code strings.TrimSpace}. */
    private static String goTrimSpace(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && isGoSpace(s.charAt(from))) {
            from++;
        }
        while (to > from && isGoSpace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    private static boolean isGoSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || c == '\u0085' || Character.isSpaceChar(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** {@code parseQuantityString}; null on {@code ErrFormatWrong}. */
    @SuppressWarnings("checkstyle:CyclomaticComplexity") // a faithful port of one Go scanner
    private static Scan scan(String str) {
        boolean positive = true;
        int pos = 0;
        int end = str.length();
        if (str.charAt(0) == '-') {
            positive = false;
            pos++;
        } else if (str.charAt(0) == '+') {
            pos++;
        }
        while (true) { // strip leading zeros
            if (pos >= end) {
                return new Scan(positive, "0", "0", "", "");
            }
            if (str.charAt(pos) != '0') {
                break;
            }
            pos++;
        }
        int i = pos;
        while (i < end && isDigit(str.charAt(i))) {
            i++;
        }
        String num = str.substring(pos, i);
        if (i >= end) {
            return new Scan(positive, str, num, "", "");
        }
        pos = i;
        if (num.isEmpty()) {
            num = "0";
        }
        String denom = "";
        if (str.charAt(pos) == '.') {
            pos++;
            i = pos;
            while (i < end && isDigit(str.charAt(i))) {
                i++;
            }
            denom = str.substring(pos, i);
            if (i >= end) {
                return new Scan(positive, str, num, denom, "");
            }
            pos = i;
        }
        String value = str.substring(0, pos);
        int suffixStart = pos;
        while (pos < end && "eEinumkKMGTP".indexOf(str.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
        }
        return pos >= end ? new Scan(positive, value, num, denom, str.substring(suffixStart)) : null;
    }

    private record Scan(boolean positive, String value, String num, String denom, String suffix) {
    }

    /** A suffix: {@code value × base^exponent}. */
    private record Suffix(int base, int exponent) {

        static Suffix interpret(String s) {
            switch (s) {
                case "n": return new Suffix(10, -9);
                case "u": return new Suffix(10, -6);
                case "m": return new Suffix(10, -3);
                case "": return new Suffix(10, 0);
                case "k": return new Suffix(10, 3);
                case "M": return new Suffix(10, 6);
                case "G": return new Suffix(10, 9);
                case "T": return new Suffix(10, 12);
                case "P": return new Suffix(10, 15);
                case "E": return new Suffix(10, 18);
                case "Ki": return new Suffix(2, 10);
                case "Mi": return new Suffix(2, 20);
                case "Gi": return new Suffix(2, 30);
                case "Ti": return new Suffix(2, 40);
                case "Pi": return new Suffix(2, 50);
                case "Ei": return new Suffix(2, 60);
                default: return exponent(s);
            }
        }

        private static Suffix exponent(String s) {
            if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
                try {
                    // Go: int32(strconv.ParseInt(s[1:], 10, 64)), truncation included
                    return new Suffix(10, (int) Long.parseLong(s.substring(1)));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            return null;
        }
    }
}
