package io.vgpu.state.codec;

/**
 * Go's {@code strings.TrimSpace} and {@code unicode.IsSpace}, exactly: HAMi trims annotation values with
 * them, and Java's {@link String#strip()} differs at the edges (it keeps U+00A0, Go strips it). Pure.
 */
public final class GoStrings {

    private GoStrings() {
    }

    /** Go {@code unicode.IsSpace}. */
    public static boolean isSpace(int cp) {
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
}
