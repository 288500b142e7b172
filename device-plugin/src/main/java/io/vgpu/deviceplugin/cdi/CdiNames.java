package io.vgpu.deviceplugin.cdi;

import java.util.regex.Pattern;

/**
 * The naming rules of CDI (spec/dra-spec.md §5; the container-device-interface parser): kinds
 * {@code <vendor>/<class>}, device names, fully qualified names {@code <vendor>/<class>=<name>}, and
 * the file-name convention for generated ("transient") specs. Pure.
 */
public final class CdiNames {

    private static final Pattern VENDOR = Pattern.compile("[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
    private static final Pattern CLASS = Pattern.compile("[A-Za-z]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?");
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.:-]*[A-Za-z0-9])?");
    private static final Pattern TRANSIENT_ID = Pattern.compile("[A-Za-z0-9_.:/-]+");

    private CdiNames() {
    }

    /**
     * Checks {@code <vendor>/<class>}: the vendor starts with a letter and ends with a letter or digit
     * (letters, digits, {@code -_.} inside), the class likewise, at most 63 characters.
     *
     * @throws IllegalArgumentException naming the rule broken
     */
    public static void requireKind(String kind) {
        int slash = kind == null ? -1 : kind.indexOf('/');
        if (slash < 0 || !VENDOR.matcher(kind.substring(0, slash)).matches()
                || !CLASS.matcher(kind.substring(slash + 1)).matches()) {
            throw new IllegalArgumentException("CDI kind must be <vendor>/<class> (a letter first, a letter or digit last, "
                    + "letters, digits, '-', '_', '.' inside), got \"" + kind + "\"");
        }
    }

    /**
     * Checks a device name: letters, digits, {@code -_.:}, a letter or digit at both ends.
     *
     * @throws IllegalArgumentException naming the rule broken
     */
    public static void requireDeviceName(String name) {
        if (name == null || !DEVICE.matcher(name).matches()) {
            throw new IllegalArgumentException("CDI device name must be letters, digits, '-', '_', '.', ':' with a letter "
                    + "or digit at both ends, got \"" + name + "\"");
        }
    }

    /** {@code <kind>=<name>} after checking both. */
    public static String qualified(String kind, String name) {
        requireKind(kind);
        requireDeviceName(name);
        return kind + "=" + name;
    }

    /**
     * The file name the CDI library gives a generated spec of {@code kind} for {@code transientId}:
     * {@code <vendor>-<class>_<id>.json} with {@code /} in the id replaced by {@code _}, e.g.
     * {@code k8s.gpu.vgpu.io-claim_6f1e….json}. Runtimes load {@code *.json} and {@code *.yaml} only.
     */
    public static String transientFileName(String kind, String transientId) {
        requireKind(kind);
        if (transientId == null || !TRANSIENT_ID.matcher(transientId).matches()) {
            throw new IllegalArgumentException("transient spec id must be letters, digits, '-', '_', '.', ':', '/', got \""
                    + transientId + "\"");
        }
        return kind.replace('/', '-') + "_" + transientId.replace('/', '_') + ".json";
    }

    /**
     * The file name the CDI library gives a spec of {@code kind} that is not tied to one claim or
     * container ({@code GenerateNameForSpec}): {@code <vendor>-<class>.json}, e.g.
     * {@code k8s.device-plugin.nvidia.com-gpu.json}.
     */
    public static String staticFileName(String kind) {
        requireKind(kind);
        return kind.replace('/', '-') + ".json";
    }

    /** The class part of {@code kind}. */
    static String kindClass(String kind) {
        return kind.substring(kind.indexOf('/') + 1);
    }

    /** @throws IllegalArgumentException when {@code path} is not absolute */
    static void requireAbsolute(String path, String what) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException(what + " must be an absolute path, got \"" + path + "\"");
        }
    }
}
