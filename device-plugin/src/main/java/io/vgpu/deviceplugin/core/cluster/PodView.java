package io.vgpu.deviceplugin.core.cluster;

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
 * @param resourceVersion {@code metadata.resourceVersion} of this read ("" when unknown): guards the
 *                       MIG allocation write-back
 * @param terminating    {@code metadata.deletionTimestamp} is set
 */
public record PodView(String namespace, String name, String uid, String phase, String nodeName,
                      Map<String, String> annotations, List<ContainerView> initContainers,
                      List<ContainerView> containers, String resourceVersion, boolean terminating) {

    /** A pod read without resourceVersion that is not being deleted. */
    public PodView(String namespace, String name, String uid, String phase, String nodeName,
                   Map<String, String> annotations, List<ContainerView> initContainers, List<ContainerView> containers) {
        this(namespace, name, uid, phase, nodeName, annotations, initContainers, containers, "", false);
    }

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
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
    }

    /** This pod with other annotations (as after a patch); the read's resourceVersion no longer applies. */
    public PodView withAnnotations(Map<String, String> changed) {
        return new PodView(namespace, name, uid, phase, nodeName, changed, initContainers, containers, "", terminating);
    }

    /** Still holds what it was given: neither finished (Succeeded/Failed) nor being deleted. */
    public boolean live() {
        return !terminating && !"Succeeded".equals(phase) && !"Failed".equals(phase);
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
