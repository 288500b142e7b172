/**
 * The vGPU monitor's rules, pure (JDK only): which Prometheus series HAMi's {@code vGPUmonitor}
 * emits for host GPUs, containers and MIG instances ({@link io.vgpu.deviceplugin.core.monitor.HamiMetrics},
 * {@link io.vgpu.deviceplugin.core.monitor.ContainerMetrics},
 * {@link io.vgpu.deviceplugin.core.monitor.HostGpuMetrics},
 * {@link io.vgpu.deviceplugin.core.monitor.MigMetrics}), the feedback loop that steers HAMi-core's
 * SM throttling ({@link io.vgpu.deviceplugin.core.monitor.FeedbackRule}), the container directory
 * naming and retention rules, and the pod lookup port
 * ({@link io.vgpu.deviceplugin.core.monitor.PodDirectory}).
 *
 * <p>Regions are seen through {@link io.vgpu.deviceplugin.core.monitor.UsageInfo}, HAMi's own
 * reader interface; the adapter onto hamicore-jni lives in {@code io.vgpu.deviceplugin.monitor}.
 * Source of every rule: {@code ../shared/spec/hamicore-region-spec.md} §4.
 */
package io.vgpu.deviceplugin.core.monitor;
