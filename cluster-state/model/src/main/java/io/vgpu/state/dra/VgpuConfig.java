package io.vgpu.state.dra;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The opaque configuration of DRA mode ({@code apiVersion: gpu.vgpu.io/v1alpha1},
 * {@code kind: VgpuConfig}): the per-share HAMi-core settings that HAMi's webhook puts into a
 * container's environment in device-plugin mode. It reaches the driver through a DeviceClass's or a
 * ResourceClaim's {@code config[].opaque} (spec/dra-spec.md §1.6); the gateway's webhook writes it
 * (issue 13), the node agent reads it ({@link VgpuConfigCodec}).
 *
 * <p>Each field may be absent. Several configs that apply to one request are layered with
 * {@link #over}: a field set by the config of higher precedence wins, a field it leaves out keeps
 * the lower one's value.
 *
 * @param taskPriority          HAMi-core's {@code CUDA_TASK_PRIORITY}: 0 is the highest priority,
 *                              larger numbers yield to smaller ones when the monitor's feedback
 *                              throttles a shared GPU; never negative
 * @param coreUtilizationPolicy HAMi-core's {@code GPU_CORE_UTILIZATION_POLICY}
 */
public record VgpuConfig(OptionalInt taskPriority, Optional<CorePolicy> coreUtilizationPolicy) {

    /** No field set. */
    public static final VgpuConfig EMPTY = new VgpuConfig(OptionalInt.empty(), Optional.empty());

    /**
     * Null means absent.
     *
     * @throws IllegalArgumentException for a negative priority
     */
    public VgpuConfig {
        taskPriority = taskPriority == null ? OptionalInt.empty() : taskPriority;
        coreUtilizationPolicy = coreUtilizationPolicy == null ? Optional.empty() : coreUtilizationPolicy;
        if (taskPriority.isPresent() && taskPriority.getAsInt() < 0) {
            throw new IllegalArgumentException("taskPriority must not be negative: " + taskPriority.getAsInt());
        }
    }

    /** This config layered over {@code lower}: every field this one sets wins. */
    public VgpuConfig over(VgpuConfig lower) {
        Objects.requireNonNull(lower, "lower");
        return new VgpuConfig(taskPriority.isPresent() ? taskPriority : lower.taskPriority,
                coreUtilizationPolicy.isPresent() ? coreUtilizationPolicy : lower.coreUtilizationPolicy);
    }
}
