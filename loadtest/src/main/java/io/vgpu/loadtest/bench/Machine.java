package io.vgpu.loadtest.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the benchmark ran on. */
final class Machine {

    private Machine() {
    }

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", commit());
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", cpuModel());
        m.put("memoryGiB", memoryGiB());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("jvmArgs", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        m.put("maxHeapMiB", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("loadAverageAtStart", loadAverage());
        return m;
    }

    /** The 1/5/15-minute load averages: the machine may be shared, and other work distorts the figures. */
    static String loadAverage() {
        List<String> l = lines("/proc/loadavg");
        return l.isEmpty() ? "unknown" : String.join(" ", java.util.Arrays.asList(l.get(0).split(" ")).subList(0, 3));
    }

    /**
     * The commit measured: {@code BENCH_COMMIT} (scripts/bench.sh sets it, with {@code -dirty} when the tree has
     * changes), else {@code git describe} of the working directory, else "unknown".
     */
    static String commit() {
        String given = System.getenv("BENCH_COMMIT");
        if (given != null && !given.isBlank()) {
            return given.strip();
        }
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            return git.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && git.exitValue() == 0 ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String cpuModel() {
        return lines("/proc/cpuinfo").stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
    }

    private static double memoryGiB() {
        return lines("/proc/meminfo").stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> l.replaceAll("[^0-9]", "")).map(Long::parseLong)
                .map(kib -> Math.round(kib / 1024.0 / 1024.0 * 10) / 10.0).findFirst().orElse(0.0);
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
