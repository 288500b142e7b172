package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/gpu-check.sh} compiles the project's C NVML layer with plain gcc and lists the GPUs of
 * the fake NVML library the build makes (the real check runs on a GPU machine, docs/gpu-check.md).
 */
class GpuCheckScriptTest {

    @Test
    void listsEveryGpuOfTheLoadedNvmlWithItsUuidMemoryAndHealth() throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path script = root.resolve("scripts/gpu-check.sh");
        Path fake = Path.of("target/native-test/libnvidia-ml-fake.so").toAbsolutePath();
        assertThat(script).isExecutable();
        assertThat(fake).exists();
        // --no-dra: the DRA check (device-plugin's jar, real /dev nodes) has its own test in device-plugin
        Process p = new ProcessBuilder("bash", script.toString(), "--nvml", fake.toString(), "--no-dra")
                .directory(root.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("== C path (dlopen NVML)", "driver: 550.54.15, cuda: 12.4",
                "GPU-11111111-2222-3333-4444-555555555555", "NVIDIA A100-SXM4-40GB\t40960\t1024", "healthy",
                "\t0\tAmpere\tNvidia\t8.0\n", "\t1\tVolta\tTesla\t7.0\n", "gpus: 2");
    }

    @Test
    void failsClearlyWithoutNvml() throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath().getParent();
        Process p = new ProcessBuilder("bash", root.resolve("scripts/gpu-check.sh").toString(), "--nvml",
                "/nonexistent/libnvidia-ml.so.1", "--no-dra").directory(root.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("NVML_ERROR_LIBRARY_NOT_FOUND");
        assertThat(Files.exists(root.resolve("gpu-check"))).as("no binary left in the tree").isFalse();
    }
}
