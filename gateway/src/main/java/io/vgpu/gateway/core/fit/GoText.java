package io.vgpu.gateway.core.fit;

/**
 * The few Go standard-library string primitives whose exact behaviour HAMi's decisions depend on
 * ({@code strings.TrimSpace}, {@code strings.ToUpper/ToLower}, {@code strconv.ParseBool},
 * {@code strconv.ParseInt(s, 10, 64)}, {@code strconv.Quote} as used by {@code %q}). Java's
 * look-alikes differ at the edges (e.g. {@link String#strip()} does not treat U+00A0 as space,
 * {@link Long#parseLong} accepts non-ASCII digits, {@link String#toUpperCase} maps {@code ß} to
 * {@code SS}), and those edges end up in reason strings and annotation matches. Pure and thread-safe.
 */
public final class GoText {

    private GoText() {
    }

    /** Go {@code unicode.IsSpace}. */
    static boolean isSpace(int cp) {
        if (cp <= 0xFF) {
            return cp == ' ' || (cp >= '\t' && cp <= '\r') || cp == 0x85 || cp == 0xA0;
        }
        return cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
                || cp == 0x205F || cp == 0x3000;
    }

    /** Go {@code strings.TrimSpace}: strips leading and trailing Unicode white space. */
    public static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end) {
            int cp = s.codePointAt(start);
            if (!isSpace(cp)) {
                break;
            }
            start += Character.charCount(cp);
        }
        while (end > start) {
            int cp = s.codePointBefore(end);
            if (!isSpace(cp)) {
                break;
            }
            end -= Character.charCount(cp);
        }
        return s.substring(start, end);
    }

    /** Go {@code strings.ToUpper}: simple per-code-point upper-casing (no {@code ß → SS}). */
    public static String toUpper(String s) {
        return mapCase(s, true);
    }

    /** Go {@code strings.ToLower}: simple per-code-point lower-casing. */
    public static String toLower(String s) {
        return mapCase(s, false);
    }

    private static String mapCase(String s, boolean upper) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int mapped = upper ? Character.toUpperCase(cp) : Character.toLowerCase(cp);
            if (mapped != cp && out == null) {
                out = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (out != null) {
                out.appendCodePoint(mapped);
            }
            i += Character.charCount(cp);
        }
        return out == null ? s : out.toString();
    }

    /**
     * Go {@code strconv.ParseBool}.
     *
     * @return TRUE or FALSE, or null when Go would return an error
     */
    public static Boolean parseBool(String s) {
        if (s == null) {
            return null;
        }
        switch (s) {
            case "1", "t", "T", "TRUE", "true", "True":
                return Boolean.TRUE;
            case "0", "f", "F", "FALSE", "false", "False":
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    /**
     * Go {@code strconv.ParseInt(s, 10, 64)}: optional sign, ASCII digits only, no overflow.
     *
     * @return the value, or null when Go would return an error
     */
    public static Long parseInt64(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            negative = s.charAt(0) == '-';
            i = 1;
            if (s.length() == 1) {
                return null;
            }
        }
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multmin = limit / 10;
        long acc = 0; // accumulated negatively so that Long.MIN_VALUE fits
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            int digit = c - '0';
            if (acc < multmin) {
                return null;
            }
            acc *= 10;
            if (acc < limit + digit) {
                return null;
            }
            acc -= digit;
        }
        return negative ? acc : -acc;
    }

    /**
     * Go {@code strconv.Quote} (what {@code fmt}'s {@code %q} writes for a string): double quotes,
     * backslash escapes for quotes, backslashes and non-printable characters.
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
                case 0x0B -> out.append("\\v");
                default -> appendQuoted(out, cp);
            }
        }
        return out.append('"').toString();
    }

    private static void appendQuoted(StringBuilder out, int cp) {
        if (isPrint(cp)) {
            out.appendCodePoint(cp);
        } else if (cp < ' ' || cp == 0x7F) {
            out.append(String.format("\\x%02x", cp));
        } else if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
            // a lone surrogate is not valid UTF-8; Go sees the replacement character's bytes
            out.append("\\ufffd");
        } else if (cp <= 0xFFFF) {
            out.append(String.format("\\u%04x", cp));
        } else {
            out.append(String.format("\\U%08x", cp));
        }
    }

    /** Go {@code strconv.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    static boolean isPrint(int cp) {
        if (cp == ' ') {
            return true;
        }
        switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.UNASSIGNED, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR:
                return false;
            default:
                return true;
        }
    }
}
