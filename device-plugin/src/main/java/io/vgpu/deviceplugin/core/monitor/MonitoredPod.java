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
 * @param claimUses      which DRA claim requests its containers use (empty for device-plugin pods)
 */
public record MonitoredPod(String uid, String namespace, String name, String nodeName, Map<String, String> labels,
                           Map<String, String> annotations, List<String> initContainers, List<String> containers,
                           List<ClaimUse> claimUses) {

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
        claimUses = claimUses == null ? List.of() : List.copyOf(claimUses);
    }

    /** A pod that uses no DRA claim. */
    public MonitoredPod(String uid, String namespace, String name, String nodeName, Map<String, String> labels,
                        Map<String, String> annotations, List<String> initContainers, List<String> containers) {
        this(uid, namespace, name, nodeName, labels, annotations, initContainers, containers, List.of());
    }

    /** The containers (init containers too) that use request {@code request} of ResourceClaim {@code claim}, in spec order. */
    public List<String> containersUsing(String claim, String request) {
        return claimUses.stream().filter(u -> u.uses(claim, request)).map(ClaimUse::container).distinct().toList();
    }

    /**
     * One container's use of a ResourceClaim (its {@code resources.claims[]} entry resolved to the
     * claim's name, or an extended-resource request mapping).
     *
     * @param container the container's name
     * @param claim     the ResourceClaim's name (in the pod's namespace)
     * @param request   the request it selects ({@code req} or {@code req/sub}); empty = every request
     */
    public record ClaimUse(String container, String claim, String request) {

        /** Nulls become empty. */
        public ClaimUse {
            container = Objects.requireNonNullElse(container, "");
            claim = Objects.requireNonNullElse(claim, "");
            request = Objects.requireNonNullElse(request, "");
        }

        /** True when this use covers {@code request} (a main request name) of {@code claimName}. */
        public boolean uses(String claimName, String mainRequest) {
            int slash = request.indexOf('/');
            String main = slash < 0 ? request : request.substring(0, slash);
            return claim.equals(claimName) && (main.isEmpty() || main.equals(mainRequest));
        }
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
