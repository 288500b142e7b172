package io.vgpu.deviceplugin.monitor;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import io.vgpu.deviceplugin.config.DraPluginSettings;
import io.vgpu.deviceplugin.core.monitor.PodDirectory;
import io.vgpu.hamicore.Nvml;

/**
 * The monitor's parts, assembled: what the device plugin's {@code Main} needs to run HAMi's
 * vGPUmonitor in its own JVM.
 *
 * <pre>
 *   VgpuMonitor monitor = VgpuMonitor.create(MonitorConfig.defaults(nodeName).withHookPath(hook),
 *           Optional.of(nvml), podDirectory, Clock.systemUTC());
 *   vertx.deployVerticle(monitor.verticle());
 * </pre>
 *
 * @param config    the settings
 * @param registry  the Prometheus registry served on {@code /metrics} (other meters may be added to it)
 * @param lister    the region tracker
 * @param claimRegions the DRA claim region tracker
 * @param collector the HAMi series, registered on {@code registry}
 * @param feedback  the 5 s tick
 */
public record VgpuMonitor(MonitorConfig config, PrometheusMeterRegistry registry, ContainerLister lister,
                          ClaimRegionLister claimRegions, VgpuCollector collector, FeedbackLoop feedback) {

    public VgpuMonitor {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(lister, "lister");
        Objects.requireNonNull(claimRegions, "claimRegions");
        Objects.requireNonNull(collector, "collector");
        Objects.requireNonNull(feedback, "feedback");
    }

    /**
     * Builds the monitor with a fresh Prometheus registry.
     *
     * @param config the settings
     * @param nvml   NVML for host GPU series (shared with the device plugin); empty when NVML is unusable
     * @param pods   the pod lookup (a fabric8-backed one in production)
     * @param clock  wall clock for grace periods and last-kernel ages
     */
    public static VgpuMonitor create(MonitorConfig config, Optional<Nvml> nvml, PodDirectory pods, Clock clock) {
        return create(config, nvml, pods, clock, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /** As {@link #create(MonitorConfig, Optional, PodDirectory, Clock)}, registering on {@code registry}. */
    public static VgpuMonitor create(MonitorConfig config, Optional<Nvml> nvml, PodDirectory pods, Clock clock,
                                     PrometheusMeterRegistry registry) {
        return create(config, nvml, pods, clock, registry, Path.of(DraPluginSettings.DEFAULT_PLUGIN_DIR, "checkpoint.json"));
    }

    /**
     * As {@link #create(MonitorConfig, Optional, PodDirectory, Clock, PrometheusMeterRegistry)}, with the
     * DRA kubelet plugin's checkpoint ({@code DraPluginSettings#checkpointFile()}), which names the claims
     * whose regions are under {@code <hook>/vgpu/claims}.
     */
    public static VgpuMonitor create(MonitorConfig config, Optional<Nvml> nvml, PodDirectory pods, Clock clock,
                                     PrometheusMeterRegistry registry, Path draCheckpoint) {
        ContainerLister lister = new ContainerLister(config.containersDirectory(), config.resyncInterval(), clock);
        ClaimRegionLister claims = new ClaimRegionLister(config.claimsDirectory());
        VgpuCollector collector = new VgpuCollector(config, nvml, lister, pods, clock, claims,
                new PreparedClaimIndex(draCheckpoint));
        registry.getPrometheusRegistry().register(collector);
        return new VgpuMonitor(config, registry, lister, claims, collector, new FeedbackLoop(config, lister, pods, claims));
    }

    /** A new verticle serving this monitor (deploy one instance). */
    public MonitorVerticle verticle() {
        return new MonitorVerticle(config, registry, feedback);
    }
}
