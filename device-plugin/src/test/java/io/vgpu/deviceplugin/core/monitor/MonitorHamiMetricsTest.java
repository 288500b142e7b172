package io.vgpu.deviceplugin.core.monitor;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MonitorHamiMetricsTest {

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    @Test
    void describesHamiFamiliesInHamiOrder() {
        assertThat(HamiMetrics.describe(false)).extracting(MetricDescriptor::name).containsExactly(
                "hami_host_gpu_memory_used_bytes", "hami_vgpu_memory_used_bytes", "hami_vgpu_memory_limit_bytes",
                "hami_host_gpu_utilization_ratio", "hami_host_gpu_memory_controller_utilization_ratio",
                "hami_container_device_memory_bytes", "hami_container_device_utilization_ratio",
                "hami_container_last_kernel_elapsed_seconds", "hami_mig_device_info",
                "hami_vgpu_memory_context_bytes", "hami_vgpu_memory_module_bytes", "hami_vgpu_memory_buffer_bytes");
        assertThat(HamiMetrics.describe(true)).hasSize(20).extracting(MetricDescriptor::name)
                .endsWith("HostGPUMemoryUsage", "HostCoreUtilization", "vGPU_device_memory_usage_in_bytes",
                        "vGPU_device_memory_limit_in_bytes", "Device_memory_desc_of_container",
                        "Device_utilization_desc_of_container", "Device_last_kernel_of_container", "MigInfo");
    }

    @Test
    void everyNameAndLabelIsValidPrometheusAndNeverTheZoneLabel() {
        List<MetricDescriptor> all = new ArrayList<>(HamiMetrics.describe(true));
        all.add(HamiMetrics.BUILD_INFO);
        assertThat(all).allSatisfy(d -> {
            assertThat(d.name()).matches(METRIC_NAME);
            assertThat(d.labelNames()).allMatch(l -> LABEL_NAME.matcher(l).matches())
                    .doesNotContain(HamiMetrics.ZONE_LABEL).doesNotHaveDuplicates();
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 8000, Long.MAX_VALUE, -1, -2, Long.MIN_VALUE, 0x8000_0000_0000_0401L,
            0xFFFF_FFFF_FFFF_FC00L, 0xFFFF_FFFF_FFFF_FBFFL})
    void unsignedConversionMatchesGoFloat64(long bits) {
        double expected = new BigInteger(Long.toUnsignedString(bits)).doubleValue();
        assertThat(HamiMetrics.unsignedToDouble(bits)).isEqualTo(expected);
    }

    @Test
    void unsignedConversionMatchesOnRandomValues() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long bits = random.nextLong();
            assertThat(HamiMetrics.unsignedToDouble(bits))
                    .isEqualTo(new BigInteger(Long.toUnsignedString(bits)).doubleValue());
        }
    }

    @Test
    void aSeriesNeedsOneValuePerLabel() {
        assertThatThrownBy(() -> HamiMetrics.HOST_UTILIZATION.series(1, "node", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hami_host_gpu_utilization_ratio");
    }
}
