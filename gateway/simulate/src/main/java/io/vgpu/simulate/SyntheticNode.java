package io.vgpu.simulate;

import java.util.Map;

/**
 * A generated node as the API server would hold it: a name and the annotations its device plugin
 * wrote ({@code hami.io/node-nvidia-register}, optionally {@code hami.io/node-nvidia-score}).
 *
 * @param name        node name
 * @param annotations node annotations
 */
public record SyntheticNode(String name, Map<String, String> annotations) {

    /** Copies the annotations. */
    public SyntheticNode {
        annotations = Map.copyOf(annotations);
    }
}
