package io.vgpu.simulate.dra.cel;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A semantic version (semver 2.0.0): version attributes of devices and CEL's {@code semver(...)} values.
 *
 * <p>Strict parsing as blang/semver's {@code Parse} (what Kubernetes uses): {@code MAJOR.MINOR.PATCH}, no
 * leading zeros, optional {@code -pre.release} and {@code +build}. {@link #parseNormalized} is CEL's
 * {@code semver(s, true)}: a leading {@code v} is dropped, missing minor/patch become 0 and leading zeros go.
 * Precedence (semver §11) ignores build metadata, and so do {@link #compareTo} and {@link #equals}.
 */
public final class Semver implements Comparable<Semver> {

    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]*");
    private static final Pattern IDENT = Pattern.compile("[0-9A-Za-z-]+");

    private final long major;
    private final long minor;
    private final long patch;
    private final List<String> pre;
    private final String text;

    private Semver(long major, long minor, long patch, List<String> pre, String text) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = List.copyOf(pre);
        this.text = text;
    }

    /**
     * Parses a strict semantic version.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static Semver parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("version string empty");
        }
        String rest = text;
        int plus = rest.indexOf('+');
        if (plus >= 0) {
            for (String id : rest.substring(plus + 1).split("\\.", -1)) {
                require(IDENT.matcher(id).matches(), text, "invalid build metadata");
            }
            rest = rest.substring(0, plus);
        }
        List<String> pre = new ArrayList<>();
        int dash = rest.indexOf('-');
        if (dash >= 0) {
            for (String id : rest.substring(dash + 1).split("\\.", -1)) {
                require(IDENT.matcher(id).matches(), text, "invalid pre-release identifier '" + id + "'");
                require(!isNumeric(id) || NUMBER.matcher(id).matches(), text, "pre-release number with a leading zero");
                pre.add(id);
            }
            rest = rest.substring(0, dash);
        }
        String[] parts = rest.split("\\.", -1);
        require(parts.length == 3, text, "no major, minor and patch version");
        long[] numbers = new long[3];
        for (int i = 0; i < 3; i++) {
            require(NUMBER.matcher(parts[i]).matches(), text, "invalid version number '" + parts[i] + "'");
            numbers[i] = parseLong(parts[i], text);
        }
        return new Semver(numbers[0], numbers[1], numbers[2], pre, text);
    }

    /** CEL's {@code semver(s, true)}: tolerant of a {@code v} prefix, missing parts and leading zeros. */
    public static Semver parseNormalized(String text) {
        if (text == null) {
            throw new IllegalArgumentException("version string empty");
        }
        String s = text.startsWith("v") ? text.substring(1) : text;
        int cut = indexOfAny(s, '-', '+');
        String core = cut < 0 ? s : s.substring(0, cut);
        String tail = cut < 0 ? "" : s.substring(cut);
        String[] parts = core.split("\\.", -1);
        require(parts.length >= 1 && parts.length <= 3, text, "no major, minor and patch version");
        StringBuilder normal = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            String p = i < parts.length ? parts[i] : "0";
            require(!p.isEmpty() && p.chars().allMatch(Character::isDigit), text, "invalid version number '" + p + "'");
            normal.append(i == 0 ? "" : ".").append(new BigInteger(p));
        }
        return parse(normal + tail);
    }

    /** Whether {@code text} parses (normalized or strict). */
    public static boolean isSemver(String text, boolean normalize) {
        try {
            if (normalize) {
                parseNormalized(text);
            } else {
                parse(text);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The major version. */
    public long major() {
        return major;
    }

    /** The minor version. */
    public long minor() {
        return minor;
    }

    /** The patch version. */
    public long patch() {
        return patch;
    }

    @Override
    public int compareTo(Semver o) {
        int c = Long.compare(major, o.major);
        c = c != 0 ? c : Long.compare(minor, o.minor);
        c = c != 0 ? c : Long.compare(patch, o.patch);
        if (c != 0) {
            return c;
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return Boolean.compare(pre.isEmpty(), o.pre.isEmpty());
        }
        for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
            c = comparePre(pre.get(i), o.pre.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pre.size(), o.pre.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semver s && compareTo(s) == 0;
    }

    @Override
    public int hashCode() {
        return (int) (major * 961 + minor * 31 + patch) ^ pre.hashCode();
    }

    /** The text it was parsed from (the normalized text for {@link #parseNormalized}). */
    @Override
    public String toString() {
        return text;
    }

    private static int comparePre(String a, String b) {
        boolean na = isNumeric(a);
        boolean nb = isNumeric(b);
        if (na && nb) {
            return new BigInteger(a).compareTo(new BigInteger(b));
        }
        if (na != nb) {
            return na ? -1 : 1;
        }
        return Integer.signum(a.compareTo(b));
    }

    private static boolean isNumeric(String id) {
        return !id.isEmpty() && id.chars().allMatch(ch -> ch >= '0' && ch <= '9');
    }

    private static long parseLong(String digits, String text) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("version number out of range in '" + text + "'", e);
        }
    }

    private static int indexOfAny(String s, char a, char b) {
        int ia = s.indexOf(a);
        int ib = s.indexOf(b);
        return ia < 0 ? ib : ib < 0 ? ia : Math.min(ia, ib);
    }

    private static void require(boolean ok, String text, String what) {
        if (!ok) {
            throw new IllegalArgumentException("invalid semantic version '" + text + "': " + what);
        }
    }
}
