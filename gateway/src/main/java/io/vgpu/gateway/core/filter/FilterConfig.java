package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.request.NvidiaConfig;

/**
 * What the filter decision needs from the configuration.
 *
 * @param nvidia     the device config's {@code nvidia:} section (resource names, defaults)
 * @param nodePolicy default node policy ({@code binpack} | {@code spread}), HAMi's {@code --node-scheduler-policy}
 * @param gpuPolicy  default GPU policy, HAMi's {@code --gpu-scheduler-policy}
 */
public record FilterConfig(NvidiaConfig nvidia, String nodePolicy, String gpuPolicy) {

    /** HAMi's defaults: binpack nodes, spread GPUs, chart resource names. */
    public static FilterConfig defaults() {
        return new FilterConfig(NvidiaConfig.defaults(), "binpack", "spread");
    }
}
