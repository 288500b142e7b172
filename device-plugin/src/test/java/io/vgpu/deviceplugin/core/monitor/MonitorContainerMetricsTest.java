package io.vgpu.deviceplugin.core.monitor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.vgpu.deviceplugin.core.monitor.MonitorUsageFixtures.pod;
import static io.vgpu.deviceplugin.core.monitor.MonitorUsageFixtures.usage;
import static org.assertj.core.api.Assertions.assertThat;

class MonitorContainerMetricsTest {

    private static final String UUID = "GPU-12345678-1234-1234-1234-123456789012";
    private static final MonitoredPod POD = pod("team-a", "trainer-0", "worker");

    static Stream<Arguments> uuidLabels() {
        byte[] utf8Cut = Arrays.copyOf(("GPU-" + "a".repeat(35) + "é").getBytes(StandardCharsets.UTF_8), 96);
        byte[] badAfter40 = MonitorUsageFixtures.uuidBytes(UUID);
        badAfter40[50] = (byte) 0xff;
        byte[] badInside = MonitorUsageFixtures.uuidBytes(UUID);
        badInside[0] = (byte) 0xff;
        return Stream.of(
                Arguments.of("a 40-character NVIDIA UUID", MonitorUsageFixtures.uuidBytes(UUID), Optional.of(UUID)),
                Arguments.of("a longer UUID is cut at 40 bytes", MonitorUsageFixtures.uuidBytes(UUID + "-extra"),
                        Optional.of(UUID)),
                Arguments.of("a short UUID keeps its NUL padding, as HAMi does", MonitorUsageFixtures.uuidBytes("GPU-1"),
                        Optional.of("GPU-1" + "\0".repeat(35))),
                Arguments.of("invalid UTF-8 in the first 40 bytes", badInside, Optional.empty()),
                Arguments.of("invalid UTF-8 after byte 40 does not matter", badAfter40, Optional.of(UUID)),
                Arguments.of("a multi-byte character split at byte 40", utf8Cut, Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("uuidLabels")
    void deviceUuidLabelIsTheFirst40BytesWhenValidUtf8(String name, byte[] uuid, Optional<String> label) {
        assertThat(ContainerMetrics.uuidLabel(uuid)).isEqualTo(label);
    }

    @Test
    void emitsEightSeriesPerDeviceInHamiOrder() {
        UsageInfo u = usage().uuid(0, UUID).memory(0, 8000, 1000, 500, 300).limit(0, 10000).smUtil(0, 42)
                .lastKernelTime(100);

        Collected c = ContainerMetrics.collect(POD, "worker", u, 160, false);

        assertThat(c.problems()).isEmpty();
        assertThat(c.series()).extracting(MetricSeries::name).containsExactly(
                "hami_vgpu_memory_used_bytes", "hami_vgpu_memory_limit_bytes", "hami_container_device_memory_bytes",
                "hami_container_device_utilization_ratio", "hami_vgpu_memory_context_bytes",
                "hami_vgpu_memory_module_bytes", "hami_vgpu_memory_buffer_bytes",
                "hami_container_last_kernel_elapsed_seconds");
        assertThat(c.series()).extracting(MetricSeries::value)
                .containsExactly(8000.0, 10000.0, 8000.0, 42.0, 1000.0, 500.0, 300.0, 60.0);
        assertThat(c.series().get(0).labelValues()).containsExactly("team-a", "trainer-0", "worker", "0", UUID);
    }

    @Test
    void lastKernelInTheFutureCountsAsZeroSecondsAgo() {
        UsageInfo u = usage().uuid(0, UUID).lastKernelTime(500);

        Collected c = ContainerMetrics.collect(POD, "worker", u, 160, false);

        assertThat(c.series()).filteredOn(s -> s.name().equals("hami_container_last_kernel_elapsed_seconds"))
                .extracting(MetricSeries::value).containsExactly(0.0);
    }

    @Test
    void skipsUninitialisedSlotsAndKeepsTheOthersIndices() {
        UsageInfo u = usage().uuid(0, UUID).uuid(2, "GPU-22222222-2222-2222-2222-222222222222");

        Collected c = ContainerMetrics.collect(POD, "worker", u, 0, false);

        assertThat(c.series()).extracting(s -> s.labels().get("vdevice_index")).containsOnly("0", "2");
        assertThat(c.problems()).singleElement().asString().contains("device 1").contains("not yet initialised");
    }

    @Test
    void noDevicesNoSeries() {
        Collected c = ContainerMetrics.collect(POD, "worker", usage().uuid(0, UUID).deviceNum(0), 0, true);
        assertThat(c).isEqualTo(Collected.NONE);
    }

    @Test
    void legacyMemoryDescriptionUsesUnsignedDecimalsAndWrapsTheOffset() {
        long huge = -2L; // 2^64 - 2 stored in a uint64
        UsageInfo u = usage().uuid(0, UUID).memory(0, 100, 60, 0, huge);

        Collected c = ContainerMetrics.collect(POD, "worker", u, 0, true);

        MetricSeries desc = c.series().stream().filter(s -> s.name().equals("Device_memory_desc_of_container"))
                .findFirst().orElseThrow();
        assertThat(desc.labels()).containsEntry("context", "60").containsEntry("module", "0")
                .containsEntry("data", "18446744073709551614")
                // 100 - 60 - 0 - (2^64 - 2) mod 2^64
                .containsEntry("offset", "42");
        MetricSeries buffer = c.series().stream().filter(s -> s.name().equals("hami_vgpu_memory_buffer_bytes"))
                .findFirst().orElseThrow();
        assertThat(buffer.value()).isEqualTo(1.8446744073709552E19);
    }

    @Test
    void legacySeriesFollowTheirCounterparts() {
        UsageInfo u = usage().uuid(0, UUID).lastKernelTime(1);

        List<String> names = ContainerMetrics.collect(POD, "worker", u, 2, true).series().stream()
                .map(MetricSeries::name).toList();

        assertThat(names).containsExactly("hami_vgpu_memory_used_bytes", "vGPU_device_memory_usage_in_bytes",
                "hami_vgpu_memory_limit_bytes", "vGPU_device_memory_limit_in_bytes",
                "hami_container_device_memory_bytes", "Device_memory_desc_of_container",
                "hami_container_device_utilization_ratio", "Device_utilization_desc_of_container",
                "hami_vgpu_memory_context_bytes", "hami_vgpu_memory_module_bytes", "hami_vgpu_memory_buffer_bytes",
                "hami_container_last_kernel_elapsed_seconds", "Device_last_kernel_of_container");
    }
}
