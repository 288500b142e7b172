package io.vgpu.hamicore;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The topology half of the {@link Nvml} contract (what NVLink pair scores read), against
 * {@link FakeNvml} and {@link NativeNvml} over the fake C library: GPU 0 and 1 share a PCIe switch and
 * one NVLink, GPU 0 has a second link to an NVSwitch whose PCI info NVML does not report.
 */
class NvmlTopologyContractTest {

    @TempDir
    static Path dir;

    static Stream<Arguments> implementations() {
        Supplier<Nvml> fake = () -> {
            FakeNvml nvml = FakeNvml.withGpus(
                    new GpuInfo(0, "GPU-a", "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:3B:00.0", 0, false),
                    new GpuInfo(1, "GPU-b", "NVIDIA A100-SXM4-40GB", 40L << 30, 0, "00000000:86:00.0", 0, false));
            nvml.setCommonAncestor(0, 1, Nvml.TOPOLOGY_SINGLE);
            nvml.setNvLinks(0, List.of(new NvLink(0, "00000000:86:00.0", NvLink.REMOTE_GPU),
                    new NvLink(2, "", NvLink.REMOTE_SWITCH)));
            nvml.failOn("nvmlDeviceGetTopologyCommonAncestor", 1, NvmlException.UNKNOWN);
            return nvml;
        };
        Supplier<Nvml> nativeNvml = () -> {
            try {
                Path own = Files.createTempDirectory(dir, "nvml");
                return NativeNvml.open(FakeNvmlLibrary.install(own, FakeNvmlLibrary.A100,
                        "gpu GPU-b 00000000:86:00.0 42949672960 0 0 0 0 NVIDIA A100-SXM4-40GB",
                        "topo 0 1 10", "topo 1 0 10", "nvlink 0 0 00000000:86:00.0 0", "nvlink 0 2 - 2",
                        "fail nvmlDeviceGetTopologyCommonAncestor 1 999").config());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        return Stream.of(Arguments.of("FakeNvml", fake), Arguments.of("NativeNvml", nativeNvml));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("implementations")
    void reportsTheCommonAncestorAndTheActiveLinksWithWhatIsKnownOfTheirRemoteEnd(String name, Supplier<Nvml> factory) {
        try (Nvml nvml = factory.get()) {
            assertThat(nvml.topologyCommonAncestor(0, 1)).isEqualTo(Nvml.TOPOLOGY_SINGLE);
            assertThat(nvml.nvLinks(0)).containsExactly(new NvLink(0, "00000000:86:00.0", NvLink.REMOTE_GPU),
                    new NvLink(2, "", NvLink.REMOTE_SWITCH));
            assertThat(nvml.nvLinks(1)).isEmpty();
            assertThatThrownBy(() -> nvml.topologyCommonAncestor(1, 0)).isInstanceOfSatisfying(NvmlException.class, e -> {
                assertThat(e.returnCode()).isEqualTo(NvmlException.UNKNOWN);
                assertThat(e.function()).isEqualTo("nvmlDeviceGetTopologyCommonAncestor");
            });
        }
    }
}
