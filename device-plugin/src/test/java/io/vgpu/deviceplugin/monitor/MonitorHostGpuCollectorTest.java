package io.vgpu.deviceplugin.monitor;

import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.vgpu.deviceplugin.core.monitor.Collected;
import io.vgpu.deviceplugin.core.monitor.MetricSeries;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.NvmlException;
import io.vgpu.hamicore.Utilization;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorHostGpuCollectorTest {

    private FakeNvml nvml;

    @BeforeEach
    void setUp() {
        nvml = FakeNvml.withGpus(new GpuInfo(0, "GPU-a", "Tesla T4", 100, 10, "", 0, false),
                new GpuInfo(1, "GPU-b", "Tesla T4", 100, 20, "", 0, false));
        nvml.setUtilization(0, new Utilization(50, 20));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("memory NOT_SUPPORTED is silent and keeps utilisation", "nvmlDeviceGetMemoryInfo",
                        NvmlException.NOT_SUPPORTED, 2, null),
                Arguments.of("another memory error skips the device", "nvmlDeviceGetMemoryInfo",
                        NvmlException.UNKNOWN, 0, "nvml get memory error ret=999"),
                Arguments.of("no UUID skips the device", "nvmlDeviceGetUUID", NvmlException.GPU_IS_LOST, 0,
                        "nvml GetUUID err"),
                Arguments.of("no name skips the device", "nvmlDeviceGetName", NvmlException.UNKNOWN, 0,
                        "nvml GetName err"),
                Arguments.of("no utilisation keeps the memory series", "nvmlDeviceGetUtilizationRates",
                        NvmlException.GPU_IS_LOST, 1, "nvml GetUtilizationRates err"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void anNvmlErrorOnOneGpuLeavesTheOthersIntact(String name, String function, int code, int seriesOfGpu0,
                                                  String problem) {
        nvml.failOn(function, 0, code);

        Collected c = new HostGpuCollector(nvml, "node-a", false).collect();

        assertThat(c.series()).filteredOn(s -> s.labels().get("device_index").equals("0")).hasSize(seriesOfGpu0);
        assertThat(c.series()).filteredOn(s -> s.labels().get("device_index").equals("1")).hasSize(3);
        if (problem == null) {
            assertThat(c.problems()).isEmpty();
        } else {
            assertThat(c.problems()).singleElement().asString().startsWith("GPU device 0: ").contains(problem);
        }
    }

    @Test
    void noDeviceCountMeansNoHostSeries() {
        nvml.failOn("nvmlDeviceGetCount_v2", -1, NvmlException.DRIVER_NOT_LOADED);

        Collected c = new HostGpuCollector(nvml, "node-a", true).collect();

        assertThat(c.series()).isEmpty();
        assertThat(c.problems()).singleElement().asString().contains("NVML_ERROR_DRIVER_NOT_LOADED");
    }

    @Test
    void aClosedNvmlIsAnErrorNotACrash() {
        nvml.close();

        Collected c = new HostGpuCollector(nvml, "node-a", false).collect();

        assertThat(c.series()).isEmpty();
        assertThat(c.problems()).singleElement().asString().contains("UNINITIALIZED");
    }

    @Test
    void anEmptyNodeNameFailsBothFunctionsLikeHami() {
        HostGpuCollector collector = new HostGpuCollector(nvml, "", false);

        assertThat(collector.memory(0).problems()).singleElement().asString()
                .contains("node name environment variable");
        assertThat(collector.utilization(0).problems()).singleElement().asString()
                .contains("node name environment variable");
    }

    @Test
    void emitsMemoryThenUtilisationPerGpuInIndexOrder() {
        Collected c = new HostGpuCollector(nvml, "node-a", true).collect();

        assertThat(c.series()).extracting(s -> s.name() + "#" + s.labelValues().get(s.name().contains("controller")
                        ? 0 : 1)).containsExactly(
                "hami_host_gpu_memory_used_bytes#0", "HostGPUMemoryUsage#0", "hami_host_gpu_utilization_ratio#0",
                "HostCoreUtilization#0", "hami_host_gpu_memory_controller_utilization_ratio#0",
                "hami_host_gpu_memory_used_bytes#1", "HostGPUMemoryUsage#1", "hami_host_gpu_utilization_ratio#1",
                "HostCoreUtilization#1", "hami_host_gpu_memory_controller_utilization_ratio#1");
        assertThat(c.series()).extracting(MetricSeries::value).startsWith(10.0, 10.0, 50.0, 50.0, 20.0);
    }
}
