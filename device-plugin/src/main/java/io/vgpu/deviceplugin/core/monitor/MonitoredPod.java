package io.vgpu.deviceplugin.core.monitor;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the monitor needs of a pod: identity, where it runs, the labels and annotations it reads,
 * and its container names in spec order.
 *
 * @param uid            {@code metadata.uid}
 * @param namespace      {@code metadata.namespace}
 * @param name           {@code metadata.name}
 * @param nodeName       {@code spec.nodeName}; empty while unscheduled
 * @param labels         {@code metadata.labels}
 * @param annotations    {@code metadata.annotations}
 * @param initContainers names of {@code spec.initContainers}, in order
 * @param containers     names of {@code spec.containers}, in order
 */
public record MonitoredPod(String uid, String namespace, String name, String nodeName, Map<String, String> labels,
                           Map<String, String> annotations, List<String> initContainers, List<String> containers) {

    /** The label HAMi's scheduler sets to the chosen node; the monitor's metrics only cover pods carrying it. */
    public static final String ASSIGNED_NODE_LABEL = "hami.io/vgpu-node";

    public MonitoredPod {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        nodeName = nodeName == null ? "" : nodeName;
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        initContainers = List.copyOf(initContainers);
        containers = List.copyOf(containers);
    }

    /** {@code spec.nodeName == node}: the pod runs on that node (HAMi's lister field selector). */
    public boolean scheduledOn(String node) {
        return !node.isEmpty() && node.equals(nodeName);
    }

    /** Label {@code hami.io/vgpu-node} equals {@code node} (HAMi's metrics pod selector). */
    public boolean assignedTo(String node) {
        return node.equals(labels.get(ASSIGNED_NODE_LABEL));
    }
}
