package io.vgpu.gateway.core;

import java.util.List;
import java.util.Map;

/**
 * The part of a Kubernetes Pod the scheduling core reads: identity, scheduling fields, annotations,
 * labels and containers. Built by the adapters (AdmissionReview, informer cache, extender args) so the
 * core never sees fabric8 or JSON types. Immutable.
 *
 * @param name             metadata.name
 * @param namespace        metadata.namespace
 * @param uid              metadata.uid ("" when unknown, e.g. at admission)
 * @param schedulerName    spec.schedulerName ("" when unset)
 * @param nodeName         spec.nodeName ("" when unset)
 * @param runtimeClassName spec.runtimeClassName (null when unset)
 * @param annotations      metadata.annotations
 * @param labels           metadata.labels
 * @param initContainers   spec.initContainers, in order
 * @param containers       spec.containers, in order
 */
public record PodSpec(String name, String namespace, String uid, String schedulerName, String nodeName,
                      String runtimeClassName, Map<String, String> annotations, Map<String, String> labels,
                      List<Container> initContainers, List<Container> containers) {

    /** Copies maps and lists; nulls become empty (runtimeClassName stays nullable). */
    public PodSpec {
        name = name == null ? "" : name;
        namespace = namespace == null ? "" : namespace;
        uid = uid == null ? "" : uid;
        schedulerName = schedulerName == null ? "" : schedulerName;
        nodeName = nodeName == null ? "" : nodeName;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    /** Annotation value or null. */
    public String annotation(String key) {
        return annotations.get(key);
    }
}
