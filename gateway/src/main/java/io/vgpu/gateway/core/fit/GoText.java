package io.vgpu.gateway.core.fit;

import io.vgpu.state.codec.GoStrconv;
import io.vgpu.state.codec.GoStrings;

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

    /** Go {@code strings.TrimSpace}: strips leading and trailing Unicode white space. */
    public static String trimSpace(String s) {
        return GoStrings.trimSpace(s);
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
        return s == null ? null : GoStrconv.parseBool(s).orElse(null);
    }

    /**
     * Go {@code strconv.ParseInt(s, 10, 64)}: optional sign, ASCII digits only, no overflow.
     *
     * @return the value, or null when Go would return an error
     */
    static Long parseInt64(String s) {
        return s == null ? null : GoStrconv.parseInt(s, 64).orElse(null);
    }

    /** Go {@code strconv.Quote} (what {@code fmt}'s {@code %q} writes for a string). */
    public static String quote(String s) {
        return GoStrconv.quote(s);
    }
}
