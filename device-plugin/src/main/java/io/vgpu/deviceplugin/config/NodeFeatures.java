package io.vgpu.deviceplugin.config;

import java.util.List;
import java.util.Map;

/**
 * The node agent's optional HAMi features, read from the environment next to {@link DevicePluginConfig}
 * (whose unknown-key check knows {@link #KEYS}).
 *
 * @param topologyScore publish {@code hami.io/node-nvidia-score} ({@code VGPU_ENABLE_TOPOLOGY_SCORE} /
 *                      HAMi's {@code ENABLE_TOPOLOGY_SCORE}; the chart sets it for the {@code topology-aware}
 *                      GPU policy), default false
 */
public record NodeFeatures(boolean topologyScore) {

    /** The {@code VGPU_*} keys read here. */
    public static final List<String> KEYS = List.of("VGPU_ENABLE_TOPOLOGY_SCORE");

    /** Every feature off, as HAMi's defaults. */
    public static NodeFeatures defaults() {
        return new NodeFeatures(false);
    }

    /**
     * Reads the features.
     *
     * @throws ConfigurationException listing every bad value
     */
    public static NodeFeatures fromEnv(Map<String, String> env) {
        EnvReader r = new EnvReader(env);
        NodeFeatures features = new NodeFeatures(r.bool("VGPU_ENABLE_TOPOLOGY_SCORE", "ENABLE_TOPOLOGY_SCORE", false));
        r.validateValues();
        return features;
    }
}
