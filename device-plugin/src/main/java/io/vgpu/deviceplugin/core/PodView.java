package io.vgpu.deviceplugin.core;

import java.util.List;
import java.util.Map;

/**
 * The pod the device plugin is allocating for, as read from the API server.
 *
 * @param namespace      pod namespace
 * @param name           pod name
 * @param uid            pod UID (part of the per-container cache directory name)
 * @param phase          {@code status.phase}, "" when unknown
 * @param nodeName       {@code spec.nodeName}, "" when unbound
 * @param annotations    pod annotations
 * @param initContainers init containers in spec order
 * @param containers     app containers in spec order
 */
public record PodView(String namespace, String name, String uid, String phase, String nodeName,
                      Map<String, String> annotations, List<ContainerView> initContainers,
                      List<ContainerView> containers) {

    /** Copies collections; nulls become empty. */
    public PodView {
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
        uid = uid == null ? "" : uid;
        phase = phase == null ? "" : phase;
        nodeName = nodeName == null ? "" : nodeName;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** {@code <namespace>/<name>}, for logs and messages. */
    public String key() {
        return namespace + "/" + name;
    }

    /** The value of annotation {@code key}, or null. */
    public String annotation(String key) {
        return annotations.get(key);
    }
}
