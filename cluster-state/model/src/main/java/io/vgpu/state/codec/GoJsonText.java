package io.vgpu.state.codec;

/**
 * Writes JSON strings exactly as Go's {@code encoding/json} does with its default HTML escaping:
 * {@code "} and {@code \} get a backslash; {@code \b \f \n \r \t} their short escapes; every other
 * control character below U+0020 and the HTML-sensitive {@code < > &} become
 * <code>&#92;u00XX</code> with lower-case hex; U+2028 and U+2029 become <code>&#92;u2028</code> and
 * <code>&#92;u2029</code>; a lone surrogate (invalid UTF-8 in Go) becomes <code>&#92;ufffd</code>.
 * Everything else, DEL and non-ASCII included, is written as is.
 */
final class GoJsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoJsonText() {
    }

    /** Appends {@code s} as a quoted Go JSON string. */
    static StringBuilder appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"', '\\' -> out.append('\\').append(c);
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> appendUnicodeEscape(out, c);
                default -> appendPlain(out, s, i, c);
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++; // the pair was written whole by appendPlain
            }
        }
        return out.append('"');
    }

    private static void appendPlain(StringBuilder out, String s, int i, char c) {
        if (c < 0x20) {
            appendUnicodeEscape(out, c);
        } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(i + 1));
        } else if (Character.isSurrogate(c)) {
            out.append("\\ufffd");
        } else {
            out.append(c);
        }
    }

    private static void appendUnicodeEscape(StringBuilder out, char c) {
        out.append("\\u")
                .append(HEX[(c >> 12) & 0xF])
                .append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF])
                .append(HEX[c & 0xF]);
    }
}
