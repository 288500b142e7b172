package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.config.ConfigurationException;
import io.vgpu.deviceplugin.core.DeviceFilter;
import io.vgpu.deviceplugin.core.GpuFacts;
import io.vgpu.deviceplugin.core.PhysicalDevice;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.hamicore.NvmlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fake GPU file, the NVML source and the device state. */
class DeviceSourcesTest {

    @Test
    void fakeGpuFileDescribesGpusWithDefaults() {
        List<GpuFacts> gpus = FakeGpuSource.parse("""
                gpus:
                  - {uuid: GPU-a, name: NVIDIA T4, memoryMiB: 15360, numa: 1}
                  - {uuid: GPU-b, name: NVIDIA GB10, healthy: false, index: 5}
                """, "gpus.yaml");
        assertThat(gpus).containsExactly(
                new GpuFacts("GPU-a", 0, "NVIDIA T4", OptionalLong.of(15360L * 1024 * 1024), OptionalInt.of(1), true),
                new GpuFacts("GPU-b", 5, "NVIDIA GB10", OptionalLong.empty(), OptionalInt.empty(), false));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no list        | {}                                                       | must have a list 'gpus'",
            "no uuid        | 'gpus: [{name: T4}]'                                     | gpus[0].uuid is required",
            "no name        | 'gpus: [{uuid: GPU-a}]'                                  | gpus[0].name is required",
            "negative mem   | 'gpus: [{uuid: GPU-a, name: T4, memoryMiB: -1}]'         | gpus[0].memoryMiB must be a non-negative integer",
            "twice          | 'gpus: [{uuid: GPU-a, name: T4}, {uuid: GPU-a, name: T4}]' | lists uuid GPU-a twice",
            "bad health     | 'gpus: [{uuid: GPU-a, name: T4, healthy: sometimes}]'    | healthy must be true or false"})
    void badFakeGpuFilesAreNamed(String name, String yaml, String message) {
        assertThatThrownBy(() -> FakeGpuSource.parse(yaml, "gpus.yaml")).isInstanceOf(ConfigurationException.class).hasMessageContaining(message);
    }

    @Test
    void nvmlSourceTreatsNotSupportedMemoryAsUnknownAndFailsOnOtherErrors() {
        FakeNvml nvml = FakeNvml.withGpus(
                new GpuInfo(0, "GPU-a", "Tesla T4", 16L << 30, 0, "00000000:3B:00.0", 1, false),
                new GpuInfo(1, "GPU-b", "NVIDIA GB10", 0, 0, "00000000:3C:00.0", 0, false));
        NvmlDeviceSource source = new NvmlDeviceSource(nvml, "nvml:fake");
        nvml.failOn("nvmlDeviceGetMemoryInfo", 1, NvmlException.NOT_SUPPORTED);
        assertThat(source.scan()).containsExactly(
                new GpuFacts("GPU-a", 0, "Tesla T4", OptionalLong.of(16L << 30), OptionalInt.of(1), true),
                new GpuFacts("GPU-b", 1, "NVIDIA GB10", OptionalLong.empty(), OptionalInt.of(0), true));
        nvml.failOn("nvmlDeviceGetName", 0, NvmlException.GPU_IS_LOST);
        assertThatThrownBy(source::scan).isInstanceOf(NvmlException.class).hasMessageContaining("nvmlDeviceGetName");
    }

    @Test
    void deviceStateFiltersSortsAndKeepsXidHealthSticky() {
        List<GpuFacts> scan = List.of(
                new GpuFacts("GPU-c", 2, "T4", OptionalLong.of(1), OptionalInt.empty(), true),
                new GpuFacts("GPU-a", 0, "T4", OptionalLong.of(1), OptionalInt.empty(), true),
                new GpuFacts("GPU-b", 1, "T4", OptionalLong.of(1), OptionalInt.empty(), true));
        DeviceState state = DeviceState.of(scan, new DeviceFilter(List.of("GPU-b"), List.of()));
        List<List<PhysicalDevice>> seen = new ArrayList<>();
        state.subscribe(seen::add);

        assertThat(state.devices()).extracting(PhysicalDevice::id).containsExactly("GPU-a", "GPU-c");
        state.markUnhealthy("GPU-a");
        state.markUnhealthy("GPU-a");
        state.markUnhealthy("GPU-b");
        assertThat(seen).as("one notification per real change").hasSize(1);
        state.applySourceHealth(scan);
        assertThat(state.health()).containsEntry("GPU-a", false).containsEntry("GPU-c", true);
        state.applySourceHealth(List.of(new GpuFacts("GPU-c", 2, "T4", OptionalLong.of(1), OptionalInt.empty(), false)));
        assertThat(state.health()).containsEntry("GPU-c", false);
        assertThat(seen).hasSize(2);
        assertThat(state.inventory().indexByUuid()).containsEntry("GPU-c", 2).doesNotContainKey("GPU-b");
    }
}
