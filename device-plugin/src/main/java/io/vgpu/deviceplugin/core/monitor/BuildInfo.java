package io.vgpu.deviceplugin.core.monitor;

import java.util.Locale;
import java.util.Objects;

/**
 * The labels of {@code hami_build_info} (value 1, no {@code zone} label). HAMi fills them from its
 * Go build; this implementation reports its own version and the Java runtime in the same slots.
 *
 * @param version   release version
 * @param revision  source revision; empty when unknown
 * @param buildDate build date; empty when unknown
 * @param runtime   the {@code go_version} slot: here the Java runtime, e.g. {@code java17.0.15}
 * @param compiler  the {@code compiler} slot, e.g. {@code javac}
 * @param platform  {@code os/arch}, e.g. {@code linux/amd64}
 */
public record BuildInfo(String version, String revision, String buildDate, String runtime, String compiler,
                        String platform) {

    public BuildInfo {
        Objects.requireNonNull(version, "version");
        revision = Objects.requireNonNullElse(revision, "");
        buildDate = Objects.requireNonNullElse(buildDate, "");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(compiler, "compiler");
        Objects.requireNonNull(platform, "platform");
    }

    /** This JVM's runtime and platform with the given build identity. */
    public static BuildInfo ofRuntime(String version, String revision, String buildDate) {
        String arch = System.getProperty("os.arch", "unknown");
        String goArch = switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> arch;
        };
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        return new BuildInfo(version, revision, buildDate, "java" + Runtime.version(), "javac", os + "/" + goArch);
    }

    /** The {@code hami_build_info} series. */
    public MetricSeries series() {
        return HamiMetrics.BUILD_INFO.series(1, version, revision, buildDate, runtime, compiler, platform);
    }
}
