package io.vgpu.state.codec;

import java.math.BigInteger;

/**
 * The few Go {@code strconv} functions whose results and error texts HAMi's wire formats expose:
 * {@code ParseInt(s, 10, bits)}, {@code Atoi}, {@code ParseBool} and {@code Quote}. Error messages
 * are Go's, byte for byte ({@code strconv.ParseInt: parsing "x": invalid syntax}). Shared by the
 * codecs and the scheduling core (user annotations follow the same Go parsing rules).
 */
public final class GoStrconv {

    private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private GoStrconv() {
    }

    /** Go {@code strconv.ParseInt(s, 10, bitSize)}: optional sign, decimal digits, range of a signed {@code bitSize} integer. */
    public static Decoded<Long> parseInt(String s, int bitSize) {
        return parseSigned(s, bitSize, "ParseInt");
    }

    /** Go {@code strconv.Atoi(s)} on a 64-bit platform. */
    public static Decoded<Long> atoi(String s) {
        return parseSigned(s, 64, "Atoi");
    }

    /** Go {@code strconv.ParseBool(s)}. */
    public static Decoded<Boolean> parseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> Decoded.ok(true);
            case "0", "f", "F", "FALSE", "false", "False" -> Decoded.ok(false);
            default -> Decoded.err(syntaxError("ParseBool", s));
        };
    }

    /** Go {@code strconv.FormatBool}. */
    static String formatBool(boolean b) {
        return b ? "true" : "false";
    }

    private static Decoded<Long> parseSigned(String s, int bitSize, String fn) {
        if (s.isEmpty()) {
            return Decoded.err(syntaxError(fn, s));
        }
        boolean negative = s.charAt(0) == '-';
        int start = s.charAt(0) == '+' || negative ? 1 : 0;
        if (start == s.length()) {
            return Decoded.err(syntaxError(fn, s));
        }
        // Go's ParseUint walks left to right and reports overflow as soon as it happens, even when
        // a later character would have been a syntax error; mirror that order.
        BigInteger magnitude = BigInteger.ZERO;
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return Decoded.err(syntaxError(fn, s));
            }
            magnitude = magnitude.multiply(BigInteger.TEN).add(BigInteger.valueOf(c - '0'));
            if (magnitude.compareTo(MAX_UINT64) > 0) {
                return Decoded.err(rangeError(fn, s));
            }
        }
        BigInteger limit = BigInteger.ONE.shiftLeft(bitSize - 1);
        BigInteger value = negative ? magnitude.negate() : magnitude;
        if (negative ? magnitude.compareTo(limit) > 0 : magnitude.compareTo(limit) >= 0) {
            return Decoded.err(rangeError(fn, s));
        }
        return Decoded.ok(value.longValue());
    }

    static String syntaxError(String fn, String s) {
        return "strconv." + fn + ": parsing " + quote(s) + ": invalid syntax";
    }

    static String rangeError(String fn, String s) {
        return "strconv." + fn + ": parsing " + quote(s) + ": value out of range";
    }

    /**
     * Go {@code strconv.Quote}: double quotes, backslash escapes for quote, backslash and control
     * characters, printable Unicode kept as is. A lone surrogate, which a Go string cannot hold, is
     * written as the escaped replacement character <code>&#92;ufffd</code>.
     */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x0b -> out.append("\\v");
                default -> appendQuoted(out, cp);
            }
        }
        return out.append('"').toString();
    }

    private static void appendQuoted(StringBuilder out, int cp) {
        if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
            out.append("\\ufffd");
        } else if (cp < 0x20 || cp == 0x7f) {
            out.append(String.format("\\x%02x", cp));
        } else if (isGoPrintable(cp)) {
            out.appendCodePoint(cp);
        } else if (cp < 0x10000) {
            out.append(String.format("\\u%04x", cp));
        } else {
            out.append(String.format("\\U%08x", cp));
        }
    }

    /** Approximates Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and ASCII space. */
    private static boolean isGoPrintable(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE,
                 Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
                 Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }
}
