package io.vgpu.state.dra;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code version} attributes of a ResourceSlice: semver 2.0.0 as the API server checks it
 * (spec/dra-spec.md §1.2: {@code MAJOR.MINOR.PATCH}, no leading zeros, optional pre-release and build
 * parts, at most 64 characters), and the normalisation of the versions NVML reports. Pure.
 */
public final class SemanticVersions {

    /** Longest version the API server accepts. */
    public static final int MAX_LENGTH = 64;

    private static final String NUMBER = "(0|[1-9][0-9]*)";
    private static final String PRE = "(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)";
    private static final String BUILD = "[0-9a-zA-Z-]+";
    private static final Pattern SEMVER = Pattern.compile(NUMBER + "\\." + NUMBER + "\\." + NUMBER
            + "(-" + PRE + "(\\." + PRE + ")*)?" + "(\\+" + BUILD + "(\\." + BUILD + ")*)?");
    /** What NVML prints: one to three dot-separated decimal parts, leading zeros allowed ({@code 535.104.05}). */
    private static final Pattern NVML = Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,9}){0,2}");

    private SemanticVersions() {
    }

    /** True when {@code text} is a version the API server accepts as a {@code version} attribute. */
    public static boolean isValid(String text) {
        return text != null && text.length() <= MAX_LENGTH && SEMVER.matcher(text).matches();
    }

    /**
     * A version NVML reports as semver: missing parts become 0 and leading zeros go, so
     * {@code 535.104.05} → {@code 535.104.5}, {@code 550.54.15} stays, {@code 12.4} → {@code 12.4.0},
     * {@code 9.0} → {@code 9.0.0}. Empty when the text is not one to three decimal numbers (a driver
     * version such as {@code 550.54.15-beta} or {@code r535}): such an attribute is left out rather
     * than published wrong.
     */
    public static Optional<String> normalize(String nvmlText) {
        if (nvmlText == null) {
            return Optional.empty();
        }
        String text = nvmlText.strip();
        if (!NVML.matcher(text).matches()) {
            return Optional.empty();
        }
        String[] parts = text.split("\\.");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            if (i > 0) {
                out.append('.');
            }
            out.append(i < parts.length ? Long.parseLong(parts[i]) : 0L);
        }
        return Optional.of(out.toString());
    }
}
