package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vgpu.hamicore.FakeNvmlLibrary.A100;
import static io.vgpu.hamicore.FakeNvmlLibrary.A100_FACTS_0;
import static io.vgpu.hamicore.FakeNvmlLibrary.V100;
import static org.assertj.core.api.Assertions.assertThat;

/** The JDK-free gpu-check binary, built by the Maven build, against the fake NVML. */
class GpuCheckTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run gpuCheck(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(System.getProperty("vgpu.test.gpuCheck")));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void listsGpusWithNumaMigXidHealthIdentityAndTheDriver() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100, V100, A100_FACTS_0, "driver 535.104.05 12020");
        fake.injectXid(1, 79);
        Run run = gpuCheck("--nvml", fake.library.toString(), "--sysfs", fake.sysfs.toString(), "--xid-wait-ms", "200");
        assertThat(run.out().lines().toList()).containsExactly(
                "driver: 535.104.05, cuda: 12.2",
                "INDEX\tUUID\tNAME\tMEMORY_TOTAL_MIB\tMEMORY_USED_MIB\tNUMA\tMIG\tHEALTH\tMINOR\tARCH\tBRAND\tCC",
                "0\tGPU-aaaaaaaa-0000-0000-0000-000000000001\tNVIDIA A100-SXM4-40GB\t40960\t1024\t1\tenabled\thealthy"
                        + "\t4\tAmpere\tNvidia\t8.0",
                // no facts line: NVML's own unknown architecture and brand, compute capability NOT_SUPPORTED
                "1\tGPU-bbbbbbbb-0000-0000-0000-000000000002\tTesla V100-PCIE-32GB\t32768\t0\t0\tdisabled\tunhealthy(xid-79)"
                        + "\t1\tUnknown\tUnknown\tunknown",
                "gpus: 2");
        assertThat(run.exit()).isEqualTo(3);
    }

    @Test
    void anOlderDriverWithoutTheIdentityFunctionsPrintsThemUnknownAndStillPasses() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.installLegacy(dir, A100);
        Run run = gpuCheck("--nvml", fake.library.toString(), "--sysfs", fake.sysfs.toString());
        assertThat(run.out().lines().toList()).containsExactly(
                "driver: unknown, cuda: unknown",
                "INDEX\tUUID\tNAME\tMEMORY_TOTAL_MIB\tMEMORY_USED_MIB\tNUMA\tMIG\tHEALTH\tMINOR\tARCH\tBRAND\tCC",
                "0\tGPU-aaaaaaaa-0000-0000-0000-000000000001\tNVIDIA A100-SXM4-40GB\t40960\t1024\t1\tenabled\thealthy"
                        + "\tunknown\tunknown\tunknown\tunknown",
                "gpus: 1");
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
    }

    @Test
    void anIdentityQueryThatFailsOtherwiseIsReportedAndFailsTheCheck() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100, A100_FACTS_0, "fail nvmlDeviceGetBrand 0 15");
        Run run = gpuCheck("--nvml", fake.library.toString(), "--sysfs", fake.sysfs.toString());
        assertThat(run.out()).contains("\t4\tAmpere\t?\t8.0\n");
        assertThat(run.err()).contains("cannot read the brand: nvmlDeviceGetBrand failed: NVML_ERROR_GPU_IS_LOST (15)");
        assertThat(run.exit()).isEqualTo(1);
    }

    @Test
    void applicationXidsDoNotMakeAGpuUnhealthy() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100);
        fake.injectXid(0, 13);
        Run run = gpuCheck("--nvml", fake.library.toString(), "--sysfs", fake.sysfs.toString(), "--xid-wait-ms", "100");
        assertThat(run.out()).contains("\tenabled\thealthy\t");
        assertThat(run.exit()).isZero();
    }

    @Test
    void missingNvmlExitsOneWithTheFailingFunction() throws Exception {
        Run run = gpuCheck("--nvml", dir.resolve("missing.so").toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("dlopen failed: NVML_ERROR_LIBRARY_NOT_FOUND (12)");
    }

    @Test
    void badArgumentsPrintUsage() throws Exception {
        Run run = gpuCheck("--xid-wait-ms", "soon");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("usage:");
    }
}
