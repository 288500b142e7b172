package io.vgpu.gateway.extender;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.PodSpec;

import java.util.List;
import java.util.Map;

/**
 * A decoded {@code ExtenderArgs} (the {@code /filter} request).
 *
 * @param pod       the pod, or null when the request has none
 * @param nodeNames {@code NodeNames} (cache mode), or null when absent
 * @param nodes     {@code Nodes.items} by name, in request order (simulation mode), or null when absent
 */
public record ExtenderArgs(PodSpec pod, List<String> nodeNames, Map<String, JsonNode> nodes) {

    /** True when kube-scheduler sent full Node objects ({@code nodeCacheCapable: false}). */
    public boolean simulationMode() {
        return nodes != null;
    }
}
