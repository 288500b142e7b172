package io.vgpu.simulate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's runnable jar as {@code package} built it ({@code target/vgpu-simulate-all.jar}, what
 * {@code scripts/simulate.sh} runs): a small {@code --mode http} run in a JVM of its own starts the real gateway, the
 * simulated API server and the embedded Hazelcast member from that jar alone (its manifest, merged service files and
 * dependencies), and places pods.
 */
class SimulateJarIT {

    @Test
    void theRunnableJarSimulatesASmallClusterOverHttp(@TempDir Path dir) throws IOException, InterruptedException {
        Path jar = Path.of("target", "vgpu-simulate-all.jar");
        assertThat(jar).as("built by package").isRegularFile();
        Path output = dir.resolve("out.txt");
        Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-jar", jar.toString(),
                "--nodes", "2", "--gpus-per-node", "2", "--pods", "12", "--seed", "7"))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean exited = process.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String text = Files.readString(output);
        assertThat(exited).as("exited within 180 s:%n%s", text).isTrue();
        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("http (webhook, filter, bind over HTTP").contains("2 nodes, 4 GPUs")
                .containsPattern("pods placed +[1-9]");
    }
}
