package io.vgpu.loadtest.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link HeapProbe} in a JVM of its own under {@code -Xmx512m} (plus the run's options for forked JVMs) and
 * returns what it printed.
 */
final class HeapRun {

    static final String MAX_HEAP = "-Xmx512m";

    private HeapRun() {
    }

    /**
     * Runs the probe under {@code -Xmx512m}; when that does not complete (out of memory, or a GC that thrashes past
     * {@code limit}), runs it again under {@code -Xmx1g} to measure what the state needs, and says so.
     */
    static Map<String, Object> fork(int nodes, int pods, Duration limit, List<String> extraJvm)
            throws IOException, InterruptedException {
        Map<String, Object> out = new LinkedHashMap<>();
        Attempt first = attempt(nodes, pods, MAX_HEAP, limit, extraJvm);
        out.put("jvm", MAX_HEAP + (extraJvm.isEmpty() ? " (default collector)" : " " + String.join(" ", extraJvm)));
        if (first.json() != null) {
            out.put("completedUnderMaxHeap", true);
            BenchHttp.JSON.readTree(first.json()).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }
        out.put("completedUnderMaxHeap", false);
        out.put("failureUnderMaxHeap", first.failure());
        Attempt second = attempt(nodes, pods, "-Xmx1g", limit, extraJvm);
        if (second.json() != null) {
            out.put("jvm", "-Xmx1g (the -Xmx512m run did not complete)" + (extraJvm.isEmpty() ? ""
                    : " " + String.join(" ", extraJvm)));
            BenchHttp.JSON.readTree(second.json()).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        } else {
            out.put("failureUnder1g", second.failure());
        }
        return out;
    }

    /**
     * One probe run.
     *
     * @param json    its result line, or null
     * @param failure why there is none
     */
    private record Attempt(String json, String failure) {
    }

    private static Attempt attempt(int nodes, int pods, String maxHeap, Duration limit, List<String> extraJvm)
            throws IOException, InterruptedException {
        System.out.printf("bench: heap at %d nodes / %d pods (own JVM, %s)%n", nodes, pods, maxHeap);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, maxHeap, "-XX:+ExitOnOutOfMemoryError",
                "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4"));
        command.addAll(extraJvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapProbe.class.getName(),
                Integer.toString(nodes), Integer.toString(pods)));
        Path log = Files.createTempFile("vgpu-heap-probe-", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                return new Attempt(null, "did not finish within " + limit.toSeconds() + " s (GC thrashing near the "
                        + "heap limit)");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            String json = output.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElse(null);
            if (p.exitValue() != 0 || json == null) {
                return new Attempt(null, "exit " + p.exitValue() + (output.contains("OutOfMemoryError")
                        ? " (OutOfMemoryError)" : "") + ": " + tail(new StringBuilder(output)));
            }
            return new Attempt(json, null);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String tail(StringBuilder s) {
        return s.length() <= 600 ? s.toString() : s.substring(s.length() - 600);
    }
}
