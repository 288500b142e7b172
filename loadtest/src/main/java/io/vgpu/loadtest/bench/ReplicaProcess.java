package io.vgpu.loadtest.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own started by the driver ({@link ReplicaMain} or {@link CeilingServer}) on this JVM's class path,
 * driven over its standard streams: lines it prints that start with an upper-case word ({@code READY},
 * {@code FANOUT}) are answers; everything else is its log, of which the last lines are kept to explain a failure.
 */
final class ReplicaProcess implements AutoCloseable {

    private static final int KEPT_LOG_LINES = 40;

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Deque<String> log = new ArrayDeque<>();

    private ReplicaProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param jvmOptions JVM options (heap, collector)
     */
    static ReplicaProcess start(String name, List<String> jvmOptions, Class<?> mainClass, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        return new ReplicaProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    long pid() {
        return process.pid();
    }

    /** Waits for the next answer line starting with {@code word}; fails with the log's tail if none comes. */
    String await(String word, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = answers.poll(Math.max(1, Math.min(1_000_000_000L, deadline - System.nanoTime())),
                    TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith(word + " ")) {
                return line.substring(word.length() + 1);
            }
            boolean over = line == null && (System.nanoTime() >= deadline || !process.isAlive());
            if (over || (line != null && line.startsWith("ERROR"))) {
                throw new IllegalStateException(name + ": no " + word + " within " + timeout.toSeconds() + " s ("
                        + (process.isAlive() ? "running" : "exited " + process.exitValue()) + "); last output:\n"
                        + logTail());
            }
        }
    }

    /** Sends one command line. */
    void send(String command) throws IOException {
        stdin.write(command + "\n");
        stdin.flush();
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.matches("^[A-Z]+ .*")) {
                    answers.add(line);
                }
                synchronized (log) {
                    log.addLast(line);
                    if (log.size() > KEPT_LOG_LINES) {
                        log.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    private String logTail() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    /** Asks it to quit, and kills it when it does not within 20 s. */
    @Override
    public void close() {
        try {
            send("quit");
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
