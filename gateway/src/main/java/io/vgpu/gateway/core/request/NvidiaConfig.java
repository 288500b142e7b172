package io.vgpu.gateway.core.request;

/**
 * The knobs of HAMi's {@code nvidia:} device config ({@code device-config.yaml}) that the scheduler
 * side reads (spec §3.2). Immutable; null strings become "".
 *
 * <p>Resource names: an empty name means "not configured" and never matches a container resource.
 *
 * @param resourceCountName            number of GPUs per container, e.g. {@code nvidia.com/gpu}
 * @param resourceMemoryName           MiB per GPU, e.g. {@code nvidia.com/gpumem}
 * @param resourceMemoryPercentageName percent of each card's memory, e.g. {@code nvidia.com/gpumem-percentage}
 * @param resourceCoreName             percent of each card's SMs, e.g. {@code nvidia.com/gpucores}
 * @param resourcePriorityName         copied by the webhook into env {@code CUDA_TASK_PRIORITY}
 * @param overwriteEnv                 webhook adds {@code NVIDIA_VISIBLE_DEVICES=none} to containers without GPUs
 * @param defaultMemory                MiB used when neither memory nor percentage is given (0 ⇒ 100 %)
 * @param defaultCores                 cores when the core resource is absent
 * @param defaultGPUNum                count the webhook injects when only memory/cores/percentage are in limits
 * @param memoryFactor                 multiplies the requested memory (values below 1 act as 1)
 * @param gpuCorePolicy                webhook env {@code GPU_CORE_UTILIZATION_POLICY} unless "" or {@code default}
 * @param runtimeClassName             webhook sets {@code spec.runtimeClassName} of GPU pods when unset ("" = never)
 */
public record NvidiaConfig(String resourceCountName, String resourceMemoryName, String resourceMemoryPercentageName,
                           String resourceCoreName, String resourcePriorityName, boolean overwriteEnv,
                           int defaultMemory, int defaultCores, int defaultGPUNum, int memoryFactor,
                           String gpuCorePolicy, String runtimeClassName) {

    /** HAMi's {@code DefaultCorePolicy}: no env is injected for it. */
    public static final String DEFAULT_CORE_POLICY = "default";

    /** Normalises null strings to "". */
    public NvidiaConfig {
        resourceCountName = nullToEmpty(resourceCountName);
        resourceMemoryName = nullToEmpty(resourceMemoryName);
        resourceMemoryPercentageName = nullToEmpty(resourceMemoryPercentageName);
        resourceCoreName = nullToEmpty(resourceCoreName);
        resourcePriorityName = nullToEmpty(resourcePriorityName);
        gpuCorePolicy = nullToEmpty(gpuCorePolicy);
        runtimeClassName = nullToEmpty(runtimeClassName);
    }

    /** The HAMi chart defaults ({@code charts/hami/values.yaml}, {@code devices.nvidia}). */
    public static NvidiaConfig defaults() {
        return new NvidiaConfig("nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpumem-percentage",
                "nvidia.com/gpucores", "nvidia.com/priority", false, 0, 0, 1, 1, DEFAULT_CORE_POLICY, "");
    }

    /** {@code max(memoryFactor, 1)}: the factor actually applied to memory requests and limits. */
    public int effectiveMemoryFactor() {
        return Math.max(memoryFactor, 1);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
