package io.vgpu.deviceplugin.dra.kubelet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code scripts/gpu-check.sh}'s DRA check ({@link DraGpuCheck}) against the fake NVML library the
 * hamicore-jni build makes (two GPUs, minor numbers 0 and 1, 40960 MiB each) and a device root in a
 * temporary directory: on a GPU machine it runs against the real driver and {@code /dev}
 * (docs/gpu-check.md).
 */
class DraGpuCheckScriptTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path FAKE = ROOT.resolve("hamicore-jni/target/native-test/libnvidia-ml-fake.so");

    @TempDir
    Path dev;

    private record Run(int exit, String out) {
    }

    private Run run(String... extra) throws IOException, InterruptedException {
        assertThat(FAKE).as("the fake NVML library of the hamicore-jni build").exists();
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("scripts/gpu-check.sh").toString(),
                "--nvml", FAKE.toString(), "--dev-root", dev.toString()));
        command.addAll(List.of(extra));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().put("VGPU_DRA_CHECK_CLASSPATH", System.getProperty("java.class.path"));
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    /** {@code mknod <dev>/dev/nvidia<n> c 195 <minor>}; false where the test may not create device nodes. */
    private boolean node(int n, int minor) throws IOException, InterruptedException {
        Files.createDirectories(dev.resolve("dev"));
        Process p = new ProcessBuilder("mknod", dev.resolve("dev/nvidia" + n).toString(), "c", "195", Integer.toString(minor))
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void missingDeviceNodesAreAMismatch() throws Exception {
        Run run = run();
        assertThat(run.exit()).as(run.out()).isEqualTo(1);
        assertThat(run.out()).contains("== DRA CDI edits", "driver libraries: the NVIDIA runtime",
                "MISMATCH: " + dev.resolve("dev/nvidia0") + " is missing", "dra gpus: 2, mismatches: 2");
    }

    @Test
    void editsMatchNvmlAndTheDeviceNodes() throws Exception {
        assumeTrue(node(0, 0) && node(1, 1), "creating character devices needs CAP_MKNOD");
        Run run = run();
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("gpu-0\tGPU-11111111-2222-3333-4444-555555555555\t/dev/nvidia0\t40960 MiB\tok",
                "gpu-1\t", "dra gpus: 2, mismatches: 0");
    }

    @Test
    void aDeviceNodeWithAnotherMinorNumberIsAMismatchAndAStaticSpecIsReported() throws Exception {
        assumeTrue(node(0, 7) && node(1, 1), "creating character devices needs CAP_MKNOD");
        Path cdi = Files.createDirectories(dev.resolve("etc/cdi"));
        Files.writeString(cdi.resolve("nvidia.yaml"), """
                cdiVersion: 0.5.0
                kind: nvidia.com/gpu
                devices:
                - {name: "0", containerEdits: {deviceNodes: [{path: /dev/nvidia0}]}}
                - {name: "1", containerEdits: {deviceNodes: [{path: /dev/nvidia1}]}}
                - {name: all, containerEdits: {deviceNodes: [{path: /dev/nvidia0}, {path: /dev/nvidia1}]}}
                """);
        Run run = run("--cdi-dirs", cdi.toString());
        assertThat(run.exit()).as(run.out()).isEqualTo(1);
        assertThat(run.out()).contains("driver libraries: static CDI spec " + cdi.resolve("nvidia.yaml"),
                "\tlibraries nvidia.com/gpu=0\tMISMATCH: " + dev.resolve("dev/nvidia0") + " is 195:7, not 195:0",
                "\tlibraries nvidia.com/gpu=1\tok", "dra gpus: 2, mismatches: 1");
    }
}
