package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The in-memory NVML behaves like the native one: same values, same error codes and names. */
class FakeNvmlTest {

    private static final GpuInfo A100 = new GpuInfo(0, "GPU-a", "NVIDIA A100-SXM4-40GB", 40L << 30, 1L << 30,
            "00000000:3B:00.0", 1, true);
    private static final GpuInfo T4 = new GpuInfo(7, "GPU-t", "Tesla T4", 15L << 30, 0, "00000000:AF:00.0", 0, false);

    @Test
    void enumeratesGpusInListOrder() {
        try (FakeNvml nvml = FakeNvml.withGpus(A100, T4)) {
            assertThat(nvml.deviceCount()).isEqualTo(2);
            assertThat(nvml.describe(1)).isEqualTo(new GpuInfo(1, "GPU-t", "Tesla T4", 15L << 30, 0,
                    "00000000:AF:00.0", 0, false));
            assertThat(nvml.migMode(0)).isEqualTo(new MigMode(true, true));
            assertThat(nvml.memory(0)).isEqualTo(new MemoryInfo(40L << 30, 39L << 30, 1L << 30));
        }
    }

    @Test
    void identityFactsComeFromTheGpuInfoAndTheDriverFromSetDriver() {
        GpuInfo h100 = new GpuInfo(3, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0, "00000000:18:00.0", 0, false,
                OptionalInt.of(5), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of(new MajorMinor(9, 0)));
        try (FakeNvml nvml = FakeNvml.withGpus(A100, h100)) {
            assertThat(nvml.describe(1)).isEqualTo(new GpuInfo(1, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0,
                    "00000000:18:00.0", 0, false, OptionalInt.of(5), Optional.of("Hopper"), Optional.of("Nvidia"),
                    Optional.of(new MajorMinor(9, 0))));
            // a GpuInfo without facts: an older driver that knows none of them
            assertThat(nvml.minorNumber(0)).isEmpty();
            assertThat(nvml.architecture(0)).isEmpty();
            assertThat(nvml.brand(0)).isEmpty();
            assertThat(nvml.cudaComputeCapability(0)).isEmpty();
            assertThat(nvml.describeDriver()).isEqualTo(DriverInfo.UNKNOWN);

            nvml.setDriver(new DriverInfo(Optional.of("550.54.15"), Optional.of(MajorMinor.fromCudaVersion(12040))));
            assertThat(nvml.driverVersion()).contains("550.54.15");
            assertThat(nvml.cudaDriverVersion()).contains(new MajorMinor(12, 4));
        }
    }

    @Test
    void unsupportedIdentityFactsAreUnknownAndOtherFailuresPropagateAsInTheNativeNvml() {
        GpuInfo h100 = new GpuInfo(0, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0, "00000000:18:00.0", 0, false,
                OptionalInt.of(5), Optional.of("Hopper"), Optional.of("Nvidia"), Optional.of(new MajorMinor(9, 0)));
        FakeNvml nvml = FakeNvml.withGpus(h100);
        nvml.setDriver(new DriverInfo(Optional.of("550.54.15"), Optional.of(new MajorMinor(12, 4))));
        nvml.failOn("nvmlDeviceGetArchitecture", 0, NvmlException.NOT_SUPPORTED);
        nvml.failOn("nvmlDeviceGetMinorNumber", -1, NvmlException.FUNCTION_NOT_FOUND);
        nvml.failOn("nvmlSystemGetCudaDriverVersion_v2", -1, NvmlException.NOT_SUPPORTED);
        assertThat(nvml.describe(0)).isEqualTo(new GpuInfo(0, "GPU-h", "NVIDIA H100 80GB HBM3", 80L << 30, 0,
                "00000000:18:00.0", 0, false, OptionalInt.empty(), Optional.empty(), Optional.of("Nvidia"),
                Optional.of(new MajorMinor(9, 0))));
        assertThat(nvml.describeDriver()).isEqualTo(new DriverInfo(Optional.of("550.54.15"), Optional.empty()));

        nvml.failOn("nvmlDeviceGetBrand", 0, NvmlException.GPU_IS_LOST);
        assertThatThrownBy(() -> nvml.describe(0)).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).isEqualTo(NvmlException.GPU_IS_LOST);
            assertThat(e.function()).isEqualTo("nvmlDeviceGetBrand");
        });
        nvml.failOn("nvmlSystemGetDriverVersion", -1, NvmlException.UNKNOWN);
        assertThatThrownBy(nvml::driverVersion).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.function()).isEqualTo("nvmlSystemGetDriverVersion"));
        assertThatThrownBy(() -> nvml.cudaComputeCapability(4)).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.function()).isEqualTo("nvmlDeviceGetHandleByIndex_v2"));
        nvml.close();
        assertThatThrownBy(nvml::cudaDriverVersion).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.returnCode()).isEqualTo(NvmlException.UNINITIALIZED));
    }

    @Test
    void memoryAndUtilizationCanChange() {
        FakeNvml nvml = FakeNvml.withGpus(A100);
        nvml.setMemoryUsed(0, 2L << 30);
        nvml.setUtilization(0, new Utilization(50, 20));
        assertThat(nvml.memory(0).usedBytes()).isEqualTo(2L << 30);
        assertThat(nvml.utilization(0)).isEqualTo(new Utilization(50, 20));
    }

    @Test
    void injectedFailuresCarryCodeAndFunction() {
        FakeNvml nvml = FakeNvml.withGpus(A100, T4);
        nvml.failOn("nvmlDeviceGetMemoryInfo", 1, NvmlException.GPU_IS_LOST);
        assertThat(nvml.memory(0).totalBytes()).isEqualTo(40L << 30);
        assertThatThrownBy(() -> nvml.memory(1)).isInstanceOfSatisfying(NvmlException.class, e -> {
            assertThat(e.returnCode()).isEqualTo(NvmlException.GPU_IS_LOST);
            assertThat(e.function()).isEqualTo("nvmlDeviceGetMemoryInfo");
        });
        nvml.clearFailures();
        assertThat(nvml.memory(1).totalBytes()).isEqualTo(15L << 30);
        assertThatThrownBy(() -> nvml.uuid(2)).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.function()).isEqualTo("nvmlDeviceGetHandleByIndex_v2"));
    }

    @Test
    void xidEventsGoOnlyToSetsThatRegisteredTheDevice() {
        FakeNvml nvml = FakeNvml.withGpus(A100, T4);
        try (XidEventSet onlyT4 = nvml.openXidEvents(List.of(1)); XidEventSet both = nvml.openXidEvents(List.of(0, 1, 9))) {
            assertThat(both.failedDevices()).containsOnlyKeys(9);
            nvml.injectXid(XidEvent.critical("GPU-a", 79));
            assertThat(onlyT4.await(Duration.ofMillis(10))).isEmpty();
            assertThat(both.await(Duration.ofMillis(10))).contains(XidEvent.critical("GPU-a", 79));
        }
    }

    @Test
    void closedFakeFailsLikeAClosedNativeNvml() {
        FakeNvml nvml = FakeNvml.withGpus(A100);
        nvml.close();
        assertThat(nvml.isClosed()).isTrue();
        assertThatThrownBy(nvml::deviceCount).isInstanceOfSatisfying(NvmlException.class,
                e -> assertThat(e.returnCode()).isEqualTo(NvmlException.UNINITIALIZED));
    }
}
