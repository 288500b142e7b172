package io.vgpu.deviceplugin;

import io.vgpu.deviceplugin.config.DevicePluginConfig;
import io.vgpu.deviceplugin.devices.FakeGpuSource;
import io.vgpu.deviceplugin.devices.NvmlDeviceSource;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import io.vgpu.deviceplugin.monitor.MonitorConfig;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@link Main} turns the plugin's configuration and device source into the monitor's settings. */
class MainMonitorConfigTest {

    private static DevicePluginConfig config(String... kv) {
        Map<String, String> env = new HashMap<>(Map.of("VGPU_NODE_NAME", "gpu-7"));
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return DevicePluginConfig.fromEnv(env);
    }

    private static MonitorConfig monitorConfig(DevicePluginConfig config) {
        return Main.monitorConfig(config, new LocalHostFiles(config.hostRoot(), Runnable::run));
    }

    @ParameterizedTest(name = "host root {0}, HOOK_PATH {1}")
    @CsvSource({
            "/,             /usr/local, /usr/local/vgpu/containers,              /tmp/hami/hami-mig-apply.lock",
            "/host,         /usr/local, /host/usr/local/vgpu/containers,         /host/tmp/hami/hami-mig-apply.lock",
            "/tmp/root,     /opt/hami,  /tmp/root/opt/hami/vgpu/containers,      /tmp/root/tmp/hami/hami-mig-apply.lock"})
    void hostPathsAreSeenThroughTheHostRoot(String hostRoot, String hookPath, String containers, String migLock) {
        MonitorConfig monitor = monitorConfig(config("VGPU_HOST_ROOT", hostRoot, "HOOK_PATH", hookPath));

        assertThat(monitor.containersDirectory()).isEqualTo(Path.of(containers));
        assertThat(monitor.migApplyLock()).isEqualTo(Path.of(migLock));
    }

    @Test
    void defaultsAreHamisMonitor() {
        MonitorConfig monitor = monitorConfig(config());

        assertThat(monitor.nodeName()).isEqualTo("gpu-7");
        assertThat(monitor.bindHost()).isEqualTo("0.0.0.0");
        assertThat(monitor.port()).isEqualTo(9394);
        assertThat(monitor.legacyMetrics()).isFalse();
        assertThat(monitor.scanInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(monitor.resyncInterval()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void everyMonitorKeyReachesTheMonitor() {
        MonitorConfig monitor = monitorConfig(config("VGPU_METRICS_PORT", "9500", "VGPU_METRICS_BIND_ADDRESS", "127.0.0.1",
                "VGPU_LEGACY_METRICS", "true", "VGPU_MONITOR_SCAN_INTERVAL", "250ms", "HAMI_RESYNC_INTERVAL", "1m"));

        assertThat(monitor.port()).isEqualTo(9500);
        assertThat(monitor.bindHost()).isEqualTo("127.0.0.1");
        assertThat(monitor.legacyMetrics()).isTrue();
        assertThat(monitor.scanInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(monitor.resyncInterval()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void theMonitorSharesTheSourcesNvmlAndHasNoneForFakeGpus(@TempDir Path dir) throws Exception {
        Path gpus = Files.writeString(dir.resolve("gpus.yaml"), "gpus: []\n");
        FakeNvml nvml = FakeNvml.withGpus(new GpuInfo(0, "GPU-0", "Tesla T4", 16L << 30, 0, "00000000:3B:00.0", 0, false));

        assertThat(Main.monitorNvml(new NvmlDeviceSource(nvml, "nvml:fake"))).containsSame(nvml);
        assertThat(Main.monitorNvml(new FakeGpuSource(gpus))).isEmpty();
    }
}
