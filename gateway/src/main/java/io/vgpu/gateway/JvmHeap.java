package io.vgpu.gateway;

import java.util.List;
import java.util.Locale;

/**
 * What {@code serve} says about its heap at start: how large it may grow, against the memory the JVM sees (the
 * container's limit inside a container), and whether anyone chose that size. The gateway's state grows with the
 * cluster (docs/operations.md, sizing), so an unconfigured JVM (the default is a quarter of the limit) is worth a
 * warning; the chart always sets it ({@code scheduler.extender.heap}).
 */
final class JvmHeap {

    private static final long MIB = 1024 * 1024;

    private JvmHeap() {
    }

    /**
     * The start-up line.
     *
     * @param maxHeap       {@code Runtime.maxMemory()}
     * @param visibleMemory the memory the JVM sees (the container limit, or the host's memory)
     * @param jvmArguments  the JVM's input arguments ({@code JDK_JAVA_OPTIONS} included)
     * @return the line, and whether it is a warning
     */
    static Line describe(long maxHeap, long visibleMemory, List<String> jvmArguments) {
        String sizes = String.format(Locale.ROOT, "JVM heap: at most %d MiB, %.0f %% of the %d MiB the JVM sees"
                + " (the container's memory limit, or the host's memory)", maxHeap / MIB,
                visibleMemory > 0 ? 100.0 * maxHeap / visibleMemory : 0.0, visibleMemory / MIB);
        if (configured(jvmArguments)) {
            return new Line(sizes, false);
        }
        return new Line(sizes + "; no heap size was configured (-XX:MaxRAMPercentage or -Xmx, e.g. in"
                + " JDK_JAVA_OPTIONS): size it for the cluster (docs/operations.md#sizing)", true);
    }

    /** Whether the arguments set the maximum heap. */
    static boolean configured(List<String> jvmArguments) {
        return jvmArguments.stream().anyMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxRAMPercentage=")
                || a.startsWith("-XX:MaxHeapSize=") || a.startsWith("-XX:MaxRAMFraction=") || a.startsWith("-XX:MaxRAM="));
    }

    /**
     * One line for the log.
     *
     * @param text    the text
     * @param warning whether it is logged as a warning
     */
    record Line(String text, boolean warning) {
    }
}
