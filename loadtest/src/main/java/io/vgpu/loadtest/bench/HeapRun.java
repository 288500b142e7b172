package io.vgpu.loadtest.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@link HeapProbe} in a JVM of its own under {@code -Xmx512m} and returns what it printed. */
final class HeapRun {

    static final String MAX_HEAP = "-Xmx512m";

    private HeapRun() {
    }

    static Map<String, Object> fork(int nodes, int pods) throws IOException, InterruptedException {
        System.out.printf("bench: heap at %d nodes / %d pods (own JVM, %s)%n", nodes, pods, MAX_HEAP);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, MAX_HEAP, "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4",
                "-cp", System.getProperty("java.class.path"), HeapProbe.class.getName(), Integer.toString(nodes),
                Integer.toString(pods));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String json = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                output.append(line).append('\n');
                if (line.startsWith("{")) {
                    json = line;
                }
            }
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0 || json == null) {
            throw new IllegalStateException("the heap probe failed (exit " + (p.isAlive() ? "none" : p.exitValue())
                    + "):\n" + tail(output));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("jvm", MAX_HEAP + " (default collector)");
        JsonNode parsed = BenchHttp.JSON.readTree(json);
        parsed.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    private static String tail(StringBuilder s) {
        return s.length() <= 4000 ? s.toString() : s.substring(s.length() - 4000);
    }
}
