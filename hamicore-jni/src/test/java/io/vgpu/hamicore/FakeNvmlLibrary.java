package io.vgpu.hamicore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A private copy of the fake {@code libnvidia-ml.so} (built from {@code src/test/c/fake_nvml.c})
 * with its scenario file beside it. Each copy is a separate {@code dlopen} object, so every test
 * gets fresh NVML state. Scenario lines are documented in {@code fake_nvml.c}.
 */
final class FakeNvmlLibrary {

    static final String A100 = "gpu GPU-aaaaaaaa-0000-0000-0000-000000000001 00000000:3B:00.0 42949672960 1073741824 1 35 20 NVIDIA A100-SXM4-40GB";
    static final String V100 = "gpu GPU-bbbbbbbb-0000-0000-0000-000000000002 00000000:86:00.0 34359738368 0 -1 0 0 Tesla V100-PCIE-32GB";
    static final String T4 = "gpu GPU-cccccccc-0000-0000-0000-000000000003 00000001:AF:00.0 16106127360 2147483648 0 99 7 Tesla T4";
    /** Identity lines for the GPUs above when listed in this order: minor, architecture, brand, compute capability. */
    static final String A100_FACTS_0 = "facts 0 4 7 14 8 0";      // /dev/nvidia4, Ampere, Nvidia, 8.0
    static final String V100_FACTS_1 = "facts 1 0 5 2 7 0";       // /dev/nvidia0, Volta, Tesla, 7.0
    static final String T4_FACTS_2 = "facts 2 2 6 2 7 5";         // /dev/nvidia2, Turing, Tesla, 7.5

    final Path library;
    final Path sysfs;

    private FakeNvmlLibrary(Path library, Path sysfs) {
        this.library = library;
        this.sysfs = sysfs;
    }

    /** The fake library built by the Maven build. */
    static Path built() {
        return built("vgpu.test.fakeNvml");
    }

    private static Path built(String property) {
        String configured = System.getProperty(property, "");
        assertThat(configured).as("-D" + property + " (set by the pom)").isNotBlank();
        Path path = Path.of(configured);
        assertThat(path).as("fake NVML library").isRegularFile();
        return path;
    }

    /** Installs a copy in {@code dir} with the given scenario lines and a sysfs tree for NUMA. */
    static FakeNvmlLibrary install(Path dir, String... scenario) throws IOException {
        return install(built(), dir, scenario);
    }

    /**
     * Like {@link #install}, but the library is built without the identity symbols (minor number,
     * architecture, brand, compute capability, driver and CUDA driver version): an older driver.
     */
    static FakeNvmlLibrary installLegacy(Path dir, String... scenario) throws IOException {
        return install(built("vgpu.test.fakeNvmlLegacy"), dir, scenario);
    }

    private static FakeNvmlLibrary install(Path built, Path dir, String... scenario) throws IOException {
        Path library = dir.resolve("libnvidia-ml.so.1");
        Files.copy(built, library, StandardCopyOption.REPLACE_EXISTING);
        Files.write(Path.of(library + ".conf"), List.of(scenario), StandardCharsets.UTF_8);
        Path sysfs = dir.resolve("sys");
        numa(sysfs, "0000:3b:00.0", "1");
        numa(sysfs, "0000:86:00.0", "-1");
        // 0001:af:00.0 has no numa_node file: unknown
        return new FakeNvmlLibrary(library, sysfs);
    }

    private static void numa(Path sysfs, String device, String node) throws IOException {
        Path dir = Files.createDirectories(sysfs.resolve("bus/pci/devices").resolve(device));
        Files.writeString(dir.resolve("numa_node"), node + "\n");
    }

    /**
     * The scenario lines that give the GPU at {@code index} these MIG profiles (its gpu line must say
     * MIG 0 or 1), so the fake C library and {@link FakeNvml#setMigProfiles} describe the same GPU.
     */
    static List<String> migProfileLines(int index, List<GpuInstanceProfile> profiles) {
        return profiles.stream().map(p -> {
            StringBuilder line = new StringBuilder("migprofile " + index + " " + p.profile() + " " + p.id() + " "
                    + p.sliceCount() + " " + p.instanceCount() + " " + p.multiprocessorCount() + " " + p.memoryMiB()
                    + " " + (p.placements().isEmpty() ? 0 : p.placements().get(0).size()));
            p.placements().forEach(pl -> line.append(' ').append(pl.start()));
            return line.toString();
        }).toList();
    }

    NvmlConfig config() {
        return new NvmlConfig(library.toString(), sysfs);
    }

    /** Makes the next nvmlEventSetWait_v2 report {@code xid} for device {@code index} (-1: no device). */
    void injectXid(int index, long xid) throws IOException {
        Path staging = Path.of(library + ".xid.tmp");
        Files.writeString(staging, index + " " + xid + "\n");
        Files.move(staging, Path.of(library + ".xid"), StandardCopyOption.ATOMIC_MOVE);
    }
}
