package io.vgpu.deviceplugin.core.monitor;

import io.vgpu.state.model.MigAllocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code hami_mig_device_info} (and legacy {@code MigInfo}) for one pod's realised MIG
 * allocations: HAMi's {@code collectPodAndContainerMigInfo} (spec §4.3 step 3).
 */
public final class MigMetrics {

    private MigMetrics() {
    }

    /**
     * The container an allocation's {@code containerIndex} names: init containers count first,
     * then regular containers; empty for a negative or too large index
     * ({@code migAllocationContainerName}).
     */
    public static Optional<String> containerName(MonitoredPod pod, int containerIndex) {
        if (containerIndex < 0) {
            return Optional.empty();
        }
        if (containerIndex < pod.initContainers().size()) {
            return Optional.of(pod.initContainers().get(containerIndex));
        }
        int regular = containerIndex - pod.initContainers().size();
        return regular < pod.containers().size() ? Optional.of(pod.containers().get(regular)) : Optional.empty();
    }

    /**
     * One series (value 1) per allocation with all runtime fields, in annotation order; allocations
     * whose container index names no container are reported as problems and skipped.
     */
    public static Collected collect(MonitoredPod pod, List<MigAllocation> allocations, boolean legacy) {
        List<MetricSeries> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (MigAllocation a : allocations) {
            if (!a.realized()) {
                continue;
            }
            Optional<String> container = containerName(pod, a.containerIndex());
            if (container.isEmpty()) {
                problems.add("MIG allocation container index " + a.containerIndex() + " out of range for Pod "
                        + pod.namespace() + "/" + pod.name());
                continue;
            }
            String deviceIndex = Integer.toString(a.deviceIndex());
            String gpuInstance = Long.toString(a.gpuInstanceId().getAsLong());
            out.add(HamiMetrics.MIG_DEVICE_INFO.series(1, pod.namespace(), pod.name(), container.get(), deviceIndex,
                    a.gpuUuid(), a.migUuid(), a.profile(), gpuInstance,
                    Long.toString(a.computeInstanceId().getAsLong())));
            if (legacy) {
                out.add(HamiMetrics.LEGACY_MIG_INFO.series(1, pod.namespace(), pod.name(), container.get(),
                        deviceIndex, a.gpuUuid(), gpuInstance));
            }
        }
        return new Collected(out, problems);
    }
}
