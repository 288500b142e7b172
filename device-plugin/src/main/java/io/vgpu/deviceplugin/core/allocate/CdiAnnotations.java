package io.vgpu.deviceplugin.core.allocate;

import java.util.Map;

/**
 * The container annotation of the {@code cdi-annotations} strategy (CDI's {@code UpdateAnnotations}
 * with plugin name {@code nvidia-device-plugin}): key {@code <prefix>nvidia-device-plugin_<responseId>},
 * value the comma-joined qualified device names. Pure.
 */
final class CdiAnnotations {

    /** The plugin name CDI puts in the annotation key. */
    public static final String PLUGIN_NAME = "nvidia-device-plugin";

    private CdiAnnotations() {
    }

    /**
     * @param prefix     annotation key prefix, e.g. {@code cdi.k8s.io/}
     * @param responseId a fresh UUID per response
     * @param names      qualified CDI names; none → no annotation at all
     */
    public static Map<String, String> of(String prefix, String responseId, Iterable<String> names) {
        String joined = String.join(",", names);
        if (joined.isEmpty()) {
            return Map.of();
        }
        return Map.of(prefix + PLUGIN_NAME + "_" + responseId, joined);
    }
}
