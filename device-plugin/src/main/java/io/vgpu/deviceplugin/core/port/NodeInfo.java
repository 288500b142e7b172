package io.vgpu.deviceplugin.core.port;

import java.util.Map;
import java.util.Objects;

/**
 * This agent's Node as {@link NodeWatch} and {@link ModeCluster} see it.
 *
 * @param name            {@code metadata.name}
 * @param uid             {@code metadata.uid}
 * @param resourceVersion {@code metadata.resourceVersion}
 * @param labels          labels
 * @param annotations     annotations
 */
public record NodeInfo(String name, String uid, String resourceVersion, Map<String, String> labels,
                       Map<String, String> annotations) {

    /** Copies the maps; nulls become empty. */
    public NodeInfo {
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
