package io.vgpu.deviceplugin.dra.slice;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vgpu.state.dra.SliceBuild;

/**
 * {@code vgpu_dra_gpus_not_offered{node,reason}} on the agent's {@code /metrics}: how many GPUs of this node its
 * ResourceSlice leaves out, one series per {@link SliceBuild.Cause} (0 when none, and 0 on every series while the
 * node is not in DRA mode). The {@code GpusNotOffered} Node Event names the GPUs; this says how many, for alerts.
 */
public final class NotOfferedMetrics {

    private NotOfferedMetrics() {
    }

    /** Registers one gauge per cause on {@code registry}, reading {@code publisher}'s last build. */
    public static void register(SlicePublisher publisher, MeterRegistry registry, String node) {
        for (SliceBuild.Cause cause : SliceBuild.Cause.values()) {
            Gauge.builder("vgpu.dra.gpus.not.offered", publisher, p -> p.notOffered(cause))
                    .description("GPUs of the node its DRA ResourceSlice leaves out, by reason (see the GpusNotOffered Event)")
                    .tag("node", node).tag("reason", cause.label())
                    .register(registry);
        }
    }
}
