package io.vgpu.deviceplugin.monitor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

import io.vgpu.deviceplugin.core.monitor.BuildInfo;

/**
 * The monitor's settings. Built once by the composition root from the environment; the defaults
 * are HAMi's.
 *
 * @param hookPath          the device plugin's {@code HOOK_PATH} (HAMi chart {@code global.gpuHookPath},
 *                          default {@code /usr/local}); regions live under {@code <hookPath>/vgpu/containers}
 * @param nodeName          this node ({@code NODE_NAME}); required
 * @param legacyMetrics     also export the legacy metric names ({@code --legacy-metrics})
 * @param bindHost          HTTP bind address (HAMi {@code --metrics-bind-address :9394} = all interfaces)
 * @param port              HTTP port, 9394 in HAMi; 0 picks a free port (tests)
 * @param scanInterval      feedback tick: directory scan, then {@code Observe} (HAMi: 5 s)
 * @param resyncInterval    grace period for directories of pods not (yet) known ({@code HAMI_RESYNC_INTERVAL}, 5 min)
 * @param podLookupTimeout  how long a scan or scrape waits for the pod directory
 * @param migApplyLock      while this file exists (MIG reconfiguration) the feedback loop pauses
 *                          (HAMi: {@code /tmp/hami/hami-mig-apply.lock})
 * @param buildInfo         labels of {@code hami_build_info}
 */
public record MonitorConfig(Path hookPath, String nodeName, boolean legacyMetrics, String bindHost, int port,
                            Duration scanInterval, Duration resyncInterval, Duration podLookupTimeout,
                            Path migApplyLock, BuildInfo buildInfo) {

    public static final Path DEFAULT_HOOK_PATH = Path.of("/usr/local");
    public static final int DEFAULT_PORT = 9394;
    public static final String DEFAULT_BIND_HOST = "0.0.0.0";
    public static final Duration DEFAULT_SCAN_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_RESYNC_INTERVAL = Duration.ofMinutes(5);
    public static final Duration DEFAULT_POD_LOOKUP_TIMEOUT = Duration.ofSeconds(10);
    public static final Path DEFAULT_MIG_APPLY_LOCK = Path.of("/tmp/hami/hami-mig-apply.lock");

    public MonitorConfig {
        Objects.requireNonNull(hookPath, "hookPath");
        if (nodeName == null || nodeName.isBlank()) {
            throw new IllegalArgumentException("the monitor needs the node name (NODE_NAME)");
        }
        Objects.requireNonNull(bindHost, "bindHost");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("metrics port " + port + " is not a TCP port");
        }
        positive(scanInterval, "scanInterval");
        positive(resyncInterval, "resyncInterval");
        positive(podLookupTimeout, "podLookupTimeout");
        Objects.requireNonNull(migApplyLock, "migApplyLock");
        Objects.requireNonNull(buildInfo, "buildInfo");
    }

    /** HAMi's defaults for {@code nodeName}: hook path {@code /usr/local}, port 9394, 5 s ticks, 5 min grace. */
    public static MonitorConfig defaults(String nodeName) {
        return new MonitorConfig(DEFAULT_HOOK_PATH, nodeName, false, DEFAULT_BIND_HOST, DEFAULT_PORT,
                DEFAULT_SCAN_INTERVAL, DEFAULT_RESYNC_INTERVAL, DEFAULT_POD_LOOKUP_TIMEOUT, DEFAULT_MIG_APPLY_LOCK,
                BuildInfo.ofRuntime(version(), "", ""));
    }

    /** This config with another hook path. */
    public MonitorConfig withHookPath(Path path) {
        return new MonitorConfig(path, nodeName, legacyMetrics, bindHost, port, scanInterval, resyncInterval,
                podLookupTimeout, migApplyLock, buildInfo);
    }

    /** This config with legacy metrics on or off. */
    public MonitorConfig withLegacyMetrics(boolean legacy) {
        return new MonitorConfig(hookPath, nodeName, legacy, bindHost, port, scanInterval, resyncInterval,
                podLookupTimeout, migApplyLock, buildInfo);
    }

    /** This config listening on {@code host:port}. */
    public MonitorConfig withListen(String host, int listenPort) {
        return new MonitorConfig(hookPath, nodeName, legacyMetrics, host, listenPort, scanInterval, resyncInterval,
                podLookupTimeout, migApplyLock, buildInfo);
    }

    /** This config with another MIG apply lock path. */
    public MonitorConfig withMigApplyLock(Path lock) {
        return new MonitorConfig(hookPath, nodeName, legacyMetrics, bindHost, port, scanInterval, resyncInterval,
                podLookupTimeout, lock, buildInfo);
    }

    /** This config with another scan interval. */
    public MonitorConfig withScanInterval(Duration interval) {
        return new MonitorConfig(hookPath, nodeName, legacyMetrics, bindHost, port, interval, resyncInterval,
                podLookupTimeout, migApplyLock, buildInfo);
    }

    /** This config with another grace period for directories of pods not (yet) known. */
    public MonitorConfig withResyncInterval(Duration interval) {
        return new MonitorConfig(hookPath, nodeName, legacyMetrics, bindHost, port, scanInterval, interval,
                podLookupTimeout, migApplyLock, buildInfo);
    }

    /** {@code <hookPath>/vgpu/containers}: one directory per container using HAMi-core. */
    public Path containersDirectory() {
        return hookPath.resolve("vgpu").resolve("containers");
    }

    /** {@code <hookPath>/vgpu/claims}: one directory per DRA claim prepared on this node, one region file per request. */
    public Path claimsDirectory() {
        return hookPath.resolve("vgpu").resolve("claims");
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
    }

    private static String version() {
        String v = MonitorConfig.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
