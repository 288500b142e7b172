package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.core.register.NodeConfigEntry;
import io.vgpu.deviceplugin.core.register.NvidiaSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HAMi's device config YAML and per-node JSON. */
class ConfigFilesTest {

    @Test
    void readsTheNvidiaKeysOfTheChartsDeviceConfigAndIgnoresTheRest() {
        NvidiaSettings s = DeviceConfigFile.parse("""
                nvidia:
                  resourceCountName: nvidia.com/gpu
                  resourceMemoryName: nvidia.com/gpumem
                  defaultMemory: 0
                  deviceSplitCount: 10
                  deviceMemoryScaling: 1.5
                  deviceCoreScaling: 0.29
                  preConfiguredDeviceMemory: 131072
                  libCudaLogLevel: 1
                  enableNumaTopology: true
                  disableCoreLimit: true
                  knownMigGeometries: []
                cambricon:
                  resourceCountName: cambricon.com/vmlu
                """, "device-config.yaml");
        assertThat(s).isEqualTo(new NvidiaSettings("nvidia.com/gpu", 10, 1.5, 0.29, 131072, "1", true, true));
    }

    @Test
    void missingKeysAndFilesGetDefaultsInsteadOfACrash(@TempDir Path dir) {
        assertThat(DeviceConfigFile.parse("nvidia:\n  deviceSplitCount: 3\n", "x")).isEqualTo(
                new NvidiaSettings("nvidia.com/gpu", 3, 1, 1, 0, "", false, false));
        assertThat(DeviceConfigFile.read(dir.resolve("absent.yaml"))).isEqualTo(NvidiaSettings.defaults());
        assertThat(NodeConfigFile.read(dir.resolve("absent.json"))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "split as text     | nvidia: {deviceSplitCount: ten}     | device-config.yaml.nvidia.deviceSplitCount must be an integer",
            "split zero        | nvidia: {deviceSplitCount: 0}       | deviceSplitCount must be at least 1",
            "negative scaling  | nvidia: {deviceCoreScaling: -1}     | must be positive",
            "not yaml          | 'nvidia: [unclosed'                 | device-config.yaml is not valid YAML",
            "nvidia not a map  | nvidia: 3                           | device-config.yaml.nvidia must be an object"})
    void badDeviceConfigValuesAreNamed(String name, String yaml, String message) {
        assertThatThrownBy(() -> DeviceConfigFile.parse(yaml, "device-config.yaml"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(message);
    }

    @Test
    void nodeConfigKeysMatchCaseInsensitivelyLikeGo() {
        List<NodeConfigEntry> entries = NodeConfigFile.parse("""
                {"nodeConfig":[{"Name":"n1","OperatingMode":"hami-core","DeviceSplitCount":4,"devicememoryscaling":1.5,
                  "filterDevices":{"uuid":["GPU-a"],"index":[3]},"EnableGetPreferredAllocation":true,"migStrategy":"none"}]}
                """);
        assertThat(entries).containsExactly(new NodeConfigEntry("n1", "hami-core", 4, 1.5, null, null, null, null,
                List.of("GPU-a"), List.of(3), true));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not json        | {nodeconfig:                     | the node config is not valid JSON",
            "list not array  | {\"nodeconfig\":{}}              | nodeconfig must be a list",
            "bad split       | {\"nodeconfig\":[{\"devicesplitcount\":\"4\"}]} | nodeconfig[0].devicesplitcount must be an integer",
            "bad filter      | {\"nodeconfig\":[{\"filterdevices\":{\"index\":[\"a\"]}}]} | filterdevices.index must be a list of integers"})
    void badNodeConfigIsNamed(String name, String json, String message) {
        assertThatThrownBy(() -> NodeConfigFile.parse(json)).isInstanceOf(ConfigurationException.class).hasMessageContaining(message);
    }
}
