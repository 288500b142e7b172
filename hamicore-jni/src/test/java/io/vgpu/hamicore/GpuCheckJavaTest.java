package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.vgpu.hamicore.FakeNvmlLibrary.A100;
import static io.vgpu.hamicore.FakeNvmlLibrary.A100_FACTS_0;
import static io.vgpu.hamicore.FakeNvmlLibrary.V100;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link GpuCheck}, the JNI half of scripts/gpu-check.sh, in its own JVM against the fake NVML. */
class GpuCheckJavaTest {

    @TempDir
    Path dir;

    private static String run(Path library) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-D" + NativeLibrary.PATH_PROPERTY + "=" + System.getProperty("vgpu.test.jniLib"),
                GpuCheck.class.getName(), library.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void printsTheDriverAndEveryGpuWithItsIdentityFacts() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100, V100, A100_FACTS_0, "driver 550.54.15 12040");
        assertThat(run(fake.library).lines().toList()).containsExactly(
                "driver: 550.54.15, cuda: 12.4",
                "index\tuuid\tname\tmemory_total_mib\tmemory_used_mib\tnuma\tmig\tpci_bus_id"
                        + "\tminor\tarchitecture\tbrand\tcuda_compute_capability",
                "0\tGPU-aaaaaaaa-0000-0000-0000-000000000001\tNVIDIA A100-SXM4-40GB\t40960\t1024\t0\ton\t00000000:3B:00.0"
                        + "\t4\tAmpere\tNvidia\t8.0",
                "1\tGPU-bbbbbbbb-0000-0000-0000-000000000002\tTesla V100-PCIE-32GB\t32768\t0\t0\toff\t00000000:86:00.0"
                        + "\t1\tUnknown\tUnknown\tunknown",
                "gpus: 2",
                "topology 0-1: common ancestor 40, nvlinks 0/0");
    }

    @Test
    void printsMigProfilesInstancesAndDevicesAndTheLinksOfEveryPairWithoutChangingAnything() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.install(dir, A100, V100,
                "migprofile 0 0 19 1 7 14 4864 1 0 1 2 3 4 5 6", "migprofile 0 4 0 7 1 98 40192 8 0",
                "topo 0 1 50", "nvlink 0 3 00000000:86:00.0 0");
        List<String> out = run(fake.library).lines().toList();
        assertThat(out).contains(
                "mig 0: 1g.5gb (id 19): 7 instances, 4864 MiB, 14 SMs, placements 0+1,1+1,2+1,3+1,4+1,5+1,6+1",
                "mig 0: 7g.40gb (id 0): 1 instances, 40192 MiB, 98 SMs, placements 0+8",
                "topology 0-1: common ancestor 50, nvlinks 1/0");
        assertThat(out).noneMatch(l -> l.contains("instance ") || l.contains("device MIG-"));
    }

    @Test
    void anOlderDriverPrintsTheIdentityFactsUnknown() throws Exception {
        FakeNvmlLibrary fake = FakeNvmlLibrary.installLegacy(dir, A100);
        assertThat(run(fake.library).lines().toList()).contains(
                "driver: unknown, cuda: unknown",
                "0\tGPU-aaaaaaaa-0000-0000-0000-000000000001\tNVIDIA A100-SXM4-40GB\t40960\t1024\t0\ton\t00000000:3B:00.0"
                        + "\tunknown\tunknown\tunknown\tunknown");
    }
}
