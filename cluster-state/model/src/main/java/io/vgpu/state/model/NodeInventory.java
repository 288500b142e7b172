package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.Iterator;
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

    /**
     * A node's facts, shared between the copies a replica holds of it (the node value, its owned copy, its inventory,
     * its view) and with every later version of them: without it, one replica held 215,000 {@link GpuDevice}s and
     * 430,000 pair-score entries for 80,000 GPUs at 10,000 nodes (issue 14's heap). Held weakly: the facts of nodes
     * gone are forgotten with their last copy.
     */
    private static final WeakValuePool<Map<String, Map<String, Integer>>> SHARED_SCORES = new WeakValuePool<>();
    private static final WeakValuePool<List<GpuDevice>> SHARED_DEVICES = new WeakValuePool<>();

    /** Requires a name; copies collections (pair-score order kept); nulls become empty. */
    public NodeInventory {
        Objects.requireNonNull(name, "name");
        devices = copyDevices(devices);
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

    /**
     * A read-only copy of {@code scores} in their order: {@code scores} itself when it is such a copy already, and the
     * copy every equal (same order) set of scores shares while one is held ({@link #SHARED_SCORES}), its UUIDs the
     * {@link StringPool}'s.
     */
    static Map<String, Map<String, Integer>> copyScores(Map<String, Map<String, Integer>> scores) {
        if (scores == null || scores.isEmpty()) {
            return Map.of();
        }
        if (scores instanceof FrozenMap) {
            return scores; // rows included: only this method makes them
        }
        Map<String, Map<String, Integer>> rows = new LinkedHashMap<>();
        scores.forEach((uuid, row) -> rows.put(uuid, new FrozenMap<>(row)));
        Map<String, Map<String, Integer>> copy = new FrozenMap<>(rows);
        // pooled with the pool's words: the first copy pooled is the one every later copy shares
        Map<String, Map<String, Integer>> shared = SHARED_SCORES.of(copy, NodeInventory::canonicalScores);
        return sameOrder(shared, copy) ? shared : copy;
    }

    /**
     * An immutable copy of {@code devices}: the list itself when it is immutable already (a transition keeps its
     * value's list), else the one every equal list shares while one is held ({@link #SHARED_DEVICES}), its words the
     * {@link StringPool}'s.
     */
    static List<GpuDevice> copyDevices(List<GpuDevice> devices) {
        if (devices == null) {
            return List.of();
        }
        List<GpuDevice> copy = List.copyOf(devices);
        return copy == devices ? copy : SHARED_DEVICES.of(copy, StringPool::canonicalDevices);
    }

    /** Equal frozen scores whose UUIDs are the {@link StringPool}'s (order kept). */
    private static Map<String, Map<String, Integer>> canonicalScores(Map<String, Map<String, Integer>> scores) {
        Map<String, Map<String, Integer>> rows = new LinkedHashMap<>();
        scores.forEach((uuid, row) -> {
            Map<String, Integer> words = new LinkedHashMap<>();
            row.forEach((to, score) -> words.put(StringPool.canonical(to), score));
            rows.put(StringPool.canonical(uuid), new FrozenMap<>(words));
        });
        return new FrozenMap<>(rows);
    }

    private static boolean sameOrder(Map<String, Map<String, Integer>> a, Map<String, Map<String, Integer>> b) {
        Iterator<Map.Entry<String, Map<String, Integer>>> other = b.entrySet().iterator();
        for (Map.Entry<String, Map<String, Integer>> row : a.entrySet()) {
            Map.Entry<String, Map<String, Integer>> o = other.next();
            if (!row.getKey().equals(o.getKey()) || !List.copyOf(row.getValue().keySet())
                    .equals(List.copyOf(o.getValue().keySet()))) {
                return false;
            }
        }
        return true;
    }
}
