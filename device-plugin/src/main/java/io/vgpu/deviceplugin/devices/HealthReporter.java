package io.vgpu.deviceplugin.devices;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vgpu.deviceplugin.core.advertise.PhysicalDevice;
import io.vgpu.deviceplugin.core.port.ClusterAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes every GPU health transition visible where an operator looks: a Node Event
 * ({@code Warning GpuUnhealthy} with the cause, {@code Normal GpuHealthy} when it comes back) and, on
 * the monitor's {@code /metrics}, {@code vgpu_device_healthy} (1/0 per GPU) and
 * {@code vgpu_device_health_transitions_total} (by {@code health="healthy|unhealthy"}).
 */
public final class HealthReporter {

    private static final Logger LOG = LoggerFactory.getLogger(HealthReporter.class);

    private HealthReporter() {
    }

    /** Writes a Node Event for every transition; the handle stops it. */
    public static AutoCloseable events(DeviceState state, ClusterAccess cluster, String node) {
        return state.subscribeTransitions(t -> cluster.recordNodeEvent(node, t.healthy() ? "Normal" : "Warning",
                        t.healthy() ? "GpuHealthy" : "GpuUnhealthy",
                        "GPU " + t.uuid() + (t.healthy() ? " is healthy again (" : " marked unhealthy (") + t.reason() + ")")
                .exceptionally(e -> {
                    LOG.warn("health event for {} not written: {}", t.uuid(), e.getMessage());
                    return null;
                }));
    }

    /** Registers the health gauges and the transition counter on {@code registry}; the handle stops counting. */
    public static AutoCloseable metrics(DeviceState state, MeterRegistry registry, String node) {
        for (PhysicalDevice d : state.devices()) {
            Gauge.builder("vgpu.device.healthy", state, s -> healthy(s, d.id()))
                    .description("1 while the GPU is advertised healthy, 0 while unhealthy")
                    .tag("node", node).tag("device_uuid", d.id()).tag("device_index", Integer.toString(d.index()))
                    .register(registry);
        }
        return state.subscribeTransitions(t -> Counter.builder("vgpu.device.health.transitions")
                .description("GPU health changes (XID marks, recoveries, device source changes)")
                .tag("node", node).tag("device_uuid", t.uuid()).tag("health", t.healthy() ? "healthy" : "unhealthy")
                .register(registry).increment());
    }

    private static double healthy(DeviceState state, String uuid) {
        return state.devices().stream().anyMatch(d -> d.id().equals(uuid) && d.healthy()) ? 1 : 0;
    }
}
