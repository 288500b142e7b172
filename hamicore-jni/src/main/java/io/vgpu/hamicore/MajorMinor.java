package io.vgpu.hamicore;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A two-part version as NVML reports CUDA facts: a GPU's compute capability
 * ({@code nvmlDeviceGetCudaComputeCapability}, e.g. 9.0) or the newest CUDA version the driver
 * supports ({@code nvmlSystemGetCudaDriverVersion_v2}, e.g. 12.4).
 *
 * @param major major number, never negative
 * @param minor minor number, never negative
 */
public record MajorMinor(int major, int minor) {

    private static final Pattern TEXT = Pattern.compile("(\\d{1,9})\\.(\\d{1,9})");

    /** Rejects negative parts. */
    public MajorMinor {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("version parts must not be negative: " + major + "." + minor);
        }
    }

    /**
     * Decodes NVML's CUDA version number, {@code 1000 * major + 10 * minor} ({@code CUDA_VERSION}):
     * 12040 is 12.4, 11080 is 11.8.
     *
     * @throws IllegalArgumentException for a negative number
     */
    public static MajorMinor fromCudaVersion(int encoded) {
        if (encoded < 0) {
            throw new IllegalArgumentException("CUDA version number must not be negative: " + encoded);
        }
        return new MajorMinor(encoded / 1000, encoded % 1000 / 10);
    }

    /**
     * Parses {@code <major>.<minor>} as {@link #toString()} writes it, e.g. {@code 8.6} or {@code 12.10}.
     *
     * @throws IllegalArgumentException naming the text when it is not two dot-separated decimal numbers
     */
    public static MajorMinor parse(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a <major>.<minor> version: \"" + text + "\"");
        }
        return new MajorMinor(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The same version as semver 2.0.0 (what a DRA {@code version} attribute takes), e.g. {@code 9.0.0}. */
    public String semver() {
        return major + "." + minor + ".0";
    }

    /** {@code <major>.<minor>}, e.g. {@code 9.0}. */
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
