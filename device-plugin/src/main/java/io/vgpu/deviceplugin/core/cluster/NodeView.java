package io.vgpu.deviceplugin.core.cluster;

import java.util.Map;

/**
 * What the device plugin reads of its Node: annotations (node lock, register) and the
 * resourceVersion that guards the lock removal.
 *
 * @param name            node name
 * @param resourceVersion {@code metadata.resourceVersion} of this read
 * @param annotations     node annotations
 */
public record NodeView(String name, String resourceVersion, Map<String, String> annotations) {

    /** Copies the annotations; nulls become empty. */
    public NodeView {
        name = name == null ? "" : name;
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
