package io.vgpu.state.model;

import java.util.List;
import java.util.Map;

/**
 * One node as the scheduler scores it: its devices' current usage (registration order) and the node
 * annotations Fit reads (cordon list, pair scores). Immutable snapshot; a newer one replaces it.
 *
 * @param name        node name
 * @param devices     device usage in registration order
 * @param annotations node annotations Fit consults (e.g. {@code hami.io/device-cordon})
 * @param pairScores  NVLink/topology pair scores per device UUID (empty when not published)
 */
public record NodeView(String name, List<DeviceUsage> devices, Map<String, String> annotations,
                       Map<String, Map<String, Integer>> pairScores) {

    /** Copies collections; nulls become empty. */
    public NodeView {
        devices = List.copyOf(devices);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        pairScores = NodeInventory.copyScores(pairScores); // the inventory's, not another copy per view
    }
}
