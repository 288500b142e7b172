/**
 * The vGPU monitor of the device plugin JVM (HAMi's {@code vGPUmonitor}): scans
 * {@code <hook>/vgpu/containers/<podUID>_<container>/} for HAMi-core regions
 * ({@link io.vgpu.deviceplugin.monitor.ContainerLister}), exports HAMi's Prometheus series on
 * {@code GET /metrics} (port 9394) through Micrometer's Prometheus registry
 * ({@link io.vgpu.deviceplugin.monitor.VgpuCollector}, {@link io.vgpu.deviceplugin.monitor.MonitorVerticle}),
 * and runs the feedback loop every 5 s ({@link io.vgpu.deviceplugin.monitor.FeedbackLoop}).
 *
 * <p>Composition: {@link io.vgpu.deviceplugin.monitor.VgpuMonitor#create} builds all of it from a
 * {@link io.vgpu.deviceplugin.monitor.MonitorConfig}, an optional NVML and a
 * {@link io.vgpu.deviceplugin.core.monitor.PodDirectory}; deploy its verticle.
 * The rules themselves are in {@code io.vgpu.deviceplugin.core.monitor}.
 */
package io.vgpu.deviceplugin.monitor;
