package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class NodeGpusTest {

    private static GpuFacts gpu(String uuid, int index, OptionalLong memory, OptionalInt minor) {
        return new GpuFacts(uuid, index, "NVIDIA A100-SXM4-40GB", memory, OptionalInt.of(0), true,
                new GpuDetails(minor, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.of("0000:0" + index + ":00.0")));
    }

    private static NodeSettings node(double memoryScaling, double coreScaling, long preConfiguredMiB, DeviceFilter filter) {
        return new NodeSettings(new NvidiaSettings("nvidia.com/gpu", 10, memoryScaling, coreScaling, preConfiguredMiB, "",
                false, false), "hami-core", false, filter);
    }

    @Test
    void aGpuWithAnUnknownMinorNumberIsNotOfferedAndSaysWhy() {
        NodeGpus gpus = NodeGpus.of(List.of(
                gpu("GPU-a", 0, OptionalLong.of(40L << 30), OptionalInt.of(3)),
                gpu("GPU-b", 1, OptionalLong.of(40L << 30), OptionalInt.empty())), node(1, 1, 0, DeviceFilter.none()));
        assertThat(gpus.all()).extracting(NodeGpu::deviceName).containsExactly("gpu-3");
        assertThat(gpus.byName("gpu-3")).map(NodeGpu::deviceNode).contains("/dev/nvidia3");
        assertThat(gpus.byName("gpu-1")).isEmpty();
        assertThat(gpus.leftOut()).containsExactly(
                "GPU-b: the minor number (/dev/nvidia<minor>, the device name gpu-<minor>) is unknown");
    }

    @Test
    void capacitiesFollowTheRegistersRules() {
        // 40 GiB card: 40960 MiB x 1.5 = 61440 MiB; cores 100 x 2 = 200; unknown memory uses preConfiguredDeviceMemory
        NodeGpus gpus = NodeGpus.of(List.of(
                gpu("GPU-a", 0, OptionalLong.of(40L << 30), OptionalInt.of(0)),
                gpu("GPU-b", 1, OptionalLong.empty(), OptionalInt.of(1)),
                gpu("GPU-c", 2, OptionalLong.of(40L << 30), OptionalInt.of(2))),
                node(1.5, 2, 8192, new DeviceFilter(List.of("GPU-c"), List.of())));
        assertThat(gpus.byName("gpu-0").orElseThrow().memoryBytes()).isEqualTo(61440L << 20);
        assertThat(gpus.byName("gpu-0").orElseThrow().cores()).isEqualTo(200);
        assertThat(gpus.byName("gpu-0").orElseThrow().slots()).isEqualTo(1000);
        assertThat(gpus.byName("gpu-1").orElseThrow().memoryBytes()).isEqualTo(12288L << 20);
        assertThat(gpus.byName("gpu-2")).as("filterdevices").isEmpty();
        assertThat(NodeGpus.of(List.of(gpu("GPU-b", 1, OptionalLong.empty(), OptionalInt.of(1))),
                node(1, 1, 0, DeviceFilter.none())).leftOut())
                .containsExactly("GPU-b: NVML reports no memory and preConfiguredDeviceMemory is 0");
    }
}
