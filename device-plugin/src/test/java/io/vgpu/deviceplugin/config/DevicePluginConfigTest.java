package io.vgpu.deviceplugin.config;

import io.vgpu.deviceplugin.core.allocate.DeviceIdStrategy;
import io.vgpu.deviceplugin.core.allocate.DeviceListStrategy;
import io.vgpu.deviceplugin.core.mode.AgentMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DevicePluginConfigTest {

    private static Map<String, String> env(String... kv) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put(kv[i], kv[i + 1]);
        }
        return out;
    }

    @Test
    void defaultsMatchTheHamiChart() {
        DevicePluginConfig c = DevicePluginConfig.fromEnv(env("NODE_NAME", "gpu-1", "PATH", "/usr/bin"));
        assertThat(c.nodeName()).isEqualTo("gpu-1");
        assertThat(c.kubeletSocket()).isEqualTo(Path.of("/var/lib/kubelet/device-plugins/kubelet.sock"));
        assertThat(c.pluginSocket()).isEqualTo(Path.of("/var/lib/kubelet/device-plugins/vgpu-nvidia.sock"));
        assertThat(c.deviceConfigFile()).isEqualTo(Path.of("/device-config.yaml"));
        assertThat(c.nodeConfigFile()).isEqualTo(Path.of("/config/config.json"));
        assertThat(c.hookPath()).isEqualTo("/usr/local");
        assertThat(c.deviceListStrategies()).containsExactly(DeviceListStrategy.ENVVAR);
        assertThat(c.deviceIdStrategy()).isEqualTo(DeviceIdStrategy.UUID);
        assertThat(c.registerInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.registerRetry()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.metricsPort()).isEqualTo(9394);
        assertThat(c.xidPolicy().isDisabled(43)).isTrue();
    }

    @Test
    void modeDefaultsToDevicePluginWithDraPossible() {
        DevicePluginConfig c = DevicePluginConfig.fromEnv(env("NODE_NAME", "gpu-1"));
        assertThat(c.mode()).isEqualTo(AgentMode.DEVICE_PLUGIN);
        assertThat(c.draEnabled()).isTrue();
        assertThat(c.modeRetry()).isEqualTo(Duration.ofSeconds(30));
        DevicePluginConfig dra = DevicePluginConfig.fromEnv(env("NODE_NAME", "gpu-1", "VGPU_MODE", " DRA ", "VGPU_MODE_RETRY", "5s"));
        assertThat(dra.mode()).isEqualTo(AgentMode.DRA);
        assertThat(dra.modeRetry()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void monitorDefaultsMatchHamisVgpuMonitor() {
        DevicePluginConfig c = DevicePluginConfig.fromEnv(env("NODE_NAME", "gpu-1"));
        assertThat(c.monitorEnabled()).isTrue();
        assertThat(c.metricsPort()).isEqualTo(9394);
        assertThat(c.metricsBindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.legacyMetrics()).isFalse();
        assertThat(c.monitorScanInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.monitorResyncInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.describe()).containsEntry("metricsBindAddress", "0.0.0.0").containsEntry("legacyMetrics", false);
    }

    @Test
    void monitorKeysAreReadAndTheHamiResyncNameIsAccepted() {
        DevicePluginConfig c = DevicePluginConfig.fromEnv(env("NODE_NAME", "gpu-1", "VGPU_METRICS_PORT", "9500",
                "VGPU_METRICS_BIND_ADDRESS", " 127.0.0.1 ", "VGPU_LEGACY_METRICS", "true", "VGPU_MONITOR_SCAN_INTERVAL", "2s",
                "HAMI_RESYNC_INTERVAL", "10m"));
        assertThat(c.metricsPort()).isEqualTo(9500);
        assertThat(c.metricsBindAddress()).isEqualTo("127.0.0.1");
        assertThat(c.legacyMetrics()).isTrue();
        assertThat(c.monitorScanInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.monitorResyncInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(DevicePluginConfig.fromEnv(env("NODE_NAME", "n", "HAMI_RESYNC_INTERVAL", "10m",
                "VGPU_MONITOR_RESYNC_INTERVAL", "1m")).monitorResyncInterval()).as("the VGPU_ key wins").isEqualTo(Duration.ofMinutes(1));
        assertThat(DevicePluginConfig.fromEnv(env("NODE_NAME", "n", "VGPU_MONITOR_ENABLED", "false")).describe())
                .containsEntry("monitorEnabled", false).doesNotContainKey("legacyMetrics");
    }

    @Test
    void projectKeysWinOverTheHamiNames() {
        DevicePluginConfig c = DevicePluginConfig.fromEnv(env("NODE_NAME", "hami", "VGPU_NODE_NAME", "vgpu",
                "HOOK_PATH", "/opt/hami", "DEVICE_LIST_STRATEGY", "envvar,volume-mounts", "DP_DISABLE_HEALTHCHECKS", "all",
                "VGPU_REGISTER_INTERVAL", "1m30s", "VGPU_KUBELET_DIR", "/k", "VGPU_PLUGIN_SOCKET", "x.sock"));
        assertThat(c.nodeName()).isEqualTo("vgpu");
        assertThat(c.hookPath()).isEqualTo("/opt/hami");
        assertThat(c.deviceListStrategies()).containsExactly(DeviceListStrategy.ENVVAR, DeviceListStrategy.VOLUME_MOUNTS);
        assertThat(c.xidPolicy().allDisabled()).isTrue();
        assertThat(c.registerInterval()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.pluginSocket()).isEqualTo(Path.of("/k/x.sock"));
    }

    static Stream<Arguments> badEnvironments() {
        return Stream.of(
                Arguments.of("no node name", env(), "VGPU_NODE_NAME (or NODE_NAME) is required"),
                Arguments.of("unknown key", env("NODE_NAME", "n", "VGPU_SPLIT_COUNT", "4"), "unknown configuration variables [VGPU_SPLIT_COUNT]"),
                Arguments.of("bad duration", env("NODE_NAME", "n", "VGPU_REGISTER_INTERVAL", "30"), "VGPU_REGISTER_INTERVAL=30 is not a positive Go duration"),
                Arguments.of("bad bool", env("NODE_NAME", "n", "GDS_ENABLED", "maybe"), "GDS_ENABLED=maybe is not true or false"),
                Arguments.of("bad strategy", env("NODE_NAME", "n", "DEVICE_LIST_STRATEGY", "envvar,bogus"), "device list strategy bogus"),
                Arguments.of("bad id strategy", env("NODE_NAME", "n", "VGPU_DEVICE_ID_STRATEGY", "UUID4"), "VGPU_DEVICE_ID_STRATEGY=UUID4 is not uuid or index"),
                Arguments.of("bad port", env("NODE_NAME", "n", "VGPU_METRICS_PORT", "70000"), "VGPU_METRICS_PORT=70000 is not a port"),
                Arguments.of("fake without file", env("NODE_NAME", "n", "VGPU_DEVICE_SOURCE", "fake"), "VGPU_FAKE_GPUS_FILE is required"),
                Arguments.of("unknown source", env("NODE_NAME", "n", "VGPU_DEVICE_SOURCE", "dcgm"), "VGPU_DEVICE_SOURCE=dcgm is not nvml or fake"),
                Arguments.of("blank metrics address", env("NODE_NAME", "n", "VGPU_METRICS_BIND_ADDRESS", " "), "VGPU_METRICS_BIND_ADDRESS must not be blank"),
                Arguments.of("bad legacy flag", env("NODE_NAME", "n", "VGPU_LEGACY_METRICS", "on"), "VGPU_LEGACY_METRICS=on is not true or false"),
                Arguments.of("zero scan interval", env("NODE_NAME", "n", "VGPU_MONITOR_SCAN_INTERVAL", "0s"), "VGPU_MONITOR_SCAN_INTERVAL=0s is not a positive Go duration"),
                Arguments.of("bad HAMi resync interval", env("NODE_NAME", "n", "HAMI_RESYNC_INTERVAL", "5"), "HAMI_RESYNC_INTERVAL=5 is not a positive Go duration"),
                Arguments.of("socket clash", env("NODE_NAME", "n", "VGPU_PLUGIN_SOCKET", "kubelet.sock"), "must differ from the kubelet socket"),
                Arguments.of("unknown mode", env("NODE_NAME", "n", "VGPU_MODE", "both"), "VGPU_MODE=both is not device-plugin or dra"),
                Arguments.of("DRA mode while disabled", env("NODE_NAME", "n", "VGPU_MODE", "dra", "VGPU_DRA_ENABLED", "false"),
                        "VGPU_MODE=dra needs VGPU_DRA_ENABLED=true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badEnvironments")
    void failsFastWithOneClearMessage(String name, Map<String, String> env, String message) {
        assertThatThrownBy(() -> DevicePluginConfig.fromEnv(env))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("invalid device-plugin configuration: ")
                .hasMessageContaining(message);
    }

    @Test
    void reportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> DevicePluginConfig.fromEnv(env("VGPU_REGISTER_RETRY", "-1s", "VGPU_TYPO", "1")))
                .hasMessageContaining("VGPU_NODE_NAME (or NODE_NAME) is required")
                .hasMessageContaining("VGPU_REGISTER_RETRY=-1s")
                .hasMessageContaining("[VGPU_TYPO]");
    }

    @Test
    void theJniLibraryKeyIsKnown() {
        assertThat(DevicePluginConfig.fromEnv(env("NODE_NAME", "n", "VGPU_HAMICORE_LIB", "/opt/lib.so")).nodeName()).isEqualTo("n");
        assertThat(List.of(DevicePluginConfig.HAMICORE_LIB_KEY)).containsExactly("VGPU_HAMICORE_LIB");
    }
}
