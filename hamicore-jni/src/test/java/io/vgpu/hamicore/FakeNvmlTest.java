package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

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
