package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a node registers, independent of what is placed on it: its GPUs (from
 * {@code hami.io/node-nvidia-register}), the node annotations Fit reads (e.g. {@code hami.io/device-cordon})
 * and the NVLink/topology pair scores. Registering a node replaces its inventory and keeps its charges.
 * Immutable.
 *
 * @param name        node name
 * @param devices     registered GPUs, in registration order
 * @param annotations the node annotations Fit consults (only those: this value is replicated)
 * @param pairScores  per device UUID, the link score to other UUIDs (empty when not published)
 */
public record NodeInventory(String name, List<GpuDevice> devices, Map<String, String> annotations,
                            Map<String, Map<String, Integer>> pairScores) {

    /** Requires a name; copies collections (pair-score order kept); nulls become empty. */
    public NodeInventory {
        Objects.requireNonNull(name, "name");
        devices = devices == null ? List.of() : List.copyOf(devices);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        pairScores = copyScores(pairScores);
    }

    /**
     * The inventory behind an idle {@link NodeView} (as built from a node's annotations): each card's
     * capacity is taken from the view; its usage fields are ignored.
     */
    public static NodeInventory ofIdle(NodeView view) {
        List<GpuDevice> devices = new ArrayList<>(view.devices().size());
        for (DeviceUsage d : view.devices()) {
            devices.add(new GpuDevice(d.id(), d.index(), d.count(), d.totalmem(), d.totalcore(), d.type(), d.numa(),
                    d.mode(), d.migProfiles(), d.health()));
        }
        return new NodeInventory(view.name(), devices, view.annotations(), view.pairScores());
    }

    static Map<String, Map<String, Integer>> copyScores(Map<String, Map<String, Integer>> scores) {
        if (scores == null || scores.isEmpty()) {
            return Map.of();
        }
        Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
        scores.forEach((uuid, row) -> copy.put(uuid, Collections.unmodifiableMap(new LinkedHashMap<>(row))));
        return Collections.unmodifiableMap(copy);
    }
}
