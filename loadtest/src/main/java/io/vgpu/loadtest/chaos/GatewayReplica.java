package io.vgpu.loadtest.chaos;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One gateway replica as a separate JVM ({@code java -jar vgpu-gateway-all.jar serve}) with fixed ports, so that a
 * restarted incarnation takes the same place: the API listener (plain HTTP), the metrics listener and the Hazelcast
 * member port. A stale replica runs the same jar through {@link StaleGateway} (the jar and this harness's classes on
 * the class path), which sees every change late. Output of every incarnation goes to {@code <logDir>/<name>.log}
 * (appended). Not thread-safe: one controller (the chaos driver) starts and kills it.
 */
final class GatewayReplica {

    private final String name;
    private final int apiPort;
    private final int metricsPort;
    private final int hazelcastPort;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private volatile Process process;
    private int incarnations;

    /**
     * @param name          replica name ({@code POD_NAME}: the {@code replica} label of its metrics)
     * @param ports         API, metrics and Hazelcast ports, in that order
     * @param jar           the runnable gateway jar
     * @param jvmOptions    JVM options
     * @param staleBy       how late this replica sees every change ({@link StaleGateway}); zero for a plain replica
     * @param env           the {@code VGPU_*} environment (ports and name are added here)
     * @param logDir        where the log goes
     */
    GatewayReplica(String name, int[] ports, Path jar, List<String> jvmOptions, Duration staleBy,
                   Map<String, String> env, Path logDir) {
        this.name = name;
        this.apiPort = ports[0];
        this.metricsPort = ports[1];
        this.hazelcastPort = ports[2];
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        if (staleBy.isZero()) {
            cmd.add("-jar");
            cmd.add(jar.toAbsolutePath().toString());
        } else {
            cmd.add("-cp");
            cmd.add(jar.toAbsolutePath() + File.pathSeparator + StaleGateway.codeLocation());
            cmd.add(StaleGateway.class.getName());
            cmd.add(Long.toString(staleBy.toMillis()));
        }
        cmd.add("serve");
        this.command = List.copyOf(cmd);
        this.env = Map.copyOf(env);
        this.log = logDir.resolve(name + ".log");
    }

    String name() {
        return name;
    }

    int apiPort() {
        return apiPort;
    }

    int metricsPort() {
        return metricsPort;
    }

    int hazelcastPort() {
        return hazelcastPort;
    }

    Path log() {
        return log;
    }

    /**
     * The last {@code count} lines of the current incarnation's log that are warnings, errors or Hazelcast membership
     * changes (what explains a replica that does not come up); empty when the log cannot be read.
     */
    List<String> lastNotableLogLines(int count) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            int from = 0;
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).startsWith("==== ")) {
                    from = i;
                    break;
                }
            }
            List<String> notable = new ArrayList<>();
            for (String line : lines.subList(from, lines.size())) {
                if (line.contains(" WARN ") || line.contains(" ERROR ") || line.startsWith("Members {")
                        || line.contains("Exception")) {
                    notable.add(line.strip());
                }
            }
            return notable.subList(Math.max(0, notable.size() - count), notable.size());
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    /** How many times it was started. */
    int incarnations() {
        return incarnations;
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Starts a new incarnation (the previous one must be dead). */
    void start() {
        if (alive()) {
            throw new IllegalStateException(name + " is running");
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Map<String, String> vars = builder.environment();
        vars.keySet().removeIf(k -> k.startsWith("VGPU_"));
        vars.putAll(env);
        vars.put("VGPU_HTTP_PORT", Integer.toString(apiPort));
        vars.put("VGPU_METRICS_PORT", Integer.toString(metricsPort));
        vars.put("VGPU_HZ_PORT", Integer.toString(hazelcastPort));
        vars.put("POD_NAME", name);
        try {
            Files.writeString(log, "==== " + name + " incarnation " + (incarnations + 1) + " ====\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        incarnations++;
    }

    /** kill -9: no drain, no graceful Hazelcast leave. Waits until the process is gone. */
    void kill() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            waitFor(p, 30);
        }
    }

    /** SIGTERM (drain, graceful leave), then kill -9 after {@code seconds}. */
    void stop(int seconds) {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!waitFor(p, seconds)) {
                p.destroyForcibly();
                waitFor(p, 10);
            }
        }
    }

    private static boolean waitFor(Process p, int seconds) {
        try {
            return p.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
