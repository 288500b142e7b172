package io.vgpu.deviceplugin.cdi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Device-plugin mode's CDI spec: names as the answers use them, the GPU's device node, the lowest version. */
class DevicePluginSpecTest {

    private static final String VENDOR = "k8s.device-plugin.nvidia.com";

    @Test
    void oneDevicePerGpuNamedAsTheAnswerNamesItWithItsDeviceNode() {
        CdiSpec spec = DevicePluginSpec.of(VENDOR, List.of(new DevicePluginSpec.Gpu("GPU-a", 3),
                new DevicePluginSpec.Gpu("GPU-b", 0)));

        assertThat(spec.kind()).isEqualTo("k8s.device-plugin.nvidia.com/gpu");
        assertThat(spec.devices()).extracting(CdiDevice::name).containsExactly("GPU-a", "GPU-b");
        assertThat(spec.device("GPU-a").containerEdits().deviceNodes()).extracting(DeviceNode::path)
                .containsExactly("/dev/nvidia3");
        assertThat(spec.device("GPU-a").containerEdits().env()).isEmpty();
        assertThat(spec.containerEdits().isEmpty()).isTrue();
        assertThat(spec.cdiVersion()).isEqualTo("0.3.0");
        assertThat(CdiJson.decode(CdiJson.encode(spec), false)).isEqualTo(spec);
        assertThat(DevicePluginSpec.fileName(VENDOR)).isEqualTo("k8s.device-plugin.nvidia.com-gpu.json");
    }

    @Test
    void indexNamesStartWithADigitAndNeedVersion050() {
        CdiSpec spec = DevicePluginSpec.of(VENDOR, List.of(new DevicePluginSpec.Gpu("0", 0), new DevicePluginSpec.Gpu("1", 1)));

        assertThat(spec.qualifiedName(spec.device("1"))).isEqualTo("k8s.device-plugin.nvidia.com/gpu=1");
        assertThat(spec.cdiVersion()).isEqualTo("0.5.0");
    }

    @Test
    void refusesWhatARuntimeWouldRefuse() {
        assertThatThrownBy(() -> DevicePluginSpec.of(VENDOR, List.of()))
                .hasMessageContaining("at least one device");
        assertThatThrownBy(() -> DevicePluginSpec.of(VENDOR, List.of(new DevicePluginSpec.Gpu("0", 0),
                new DevicePluginSpec.Gpu("0", 1)))).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> new DevicePluginSpec.Gpu("GPU-a", -1)).hasMessageContaining("negative");
    }
}
