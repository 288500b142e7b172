package io.vgpu.state.model;

import java.util.ArrayList;
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

    /** Requires a name; copies collections (devices and scores: the shared copies); nulls become empty. */
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
     * A read-only copy of {@code scores}: {@code scores} itself when it is such a copy already, else the copy every
     * equal set of scores shares while one is held ({@link #SHARED_SCORES}), its UUIDs the {@link StringPool}'s. Equal
     * means equal as maps: the order of rows and of entries is not part of the value (nothing reads it: lookups go
     * through {@code PairScores}, {@link FactsHash} walks them in key order), and the copy shared keeps the order of
     * the first one pooled. Sharing only scores in the same order kept a copy, with strings of its own, of every node
     * whose scores reached a replica in a second order (a decode from the node's annotation and a value read from the
     * store): 3,000 nodes and about 30 MiB on a replica at 10,000 nodes.
     */
    static Map<String, Map<String, Integer>> copyScores(Map<String, Map<String, Integer>> scores) {
        if (scores == null || scores.isEmpty()) {
            return Map.of();
        }
        if (scores instanceof FrozenMap) {
            return scores; // rows included: only this method makes them, and only pooled
        }
        Map<String, Map<String, Integer>> rows = new LinkedHashMap<>();
        scores.forEach((uuid, row) -> rows.put(uuid, new FrozenMap<>(row)));
        // pooled with the pool's words: the first copy pooled is the one every later copy shares
        return SHARED_SCORES.of(new FrozenMap<>(rows), NodeInventory::canonicalScores);
    }

    /**
     * An immutable copy of {@code devices}: the list itself when it is such a copy already (a transition keeps its
     * value's list), else the one every equal list shares while one is held ({@link #SHARED_DEVICES}), its words the
     * {@link StringPool}'s.
     */
    static List<GpuDevice> copyDevices(List<GpuDevice> devices) {
        if (devices == null) {
            return List.of();
        }
        if (devices instanceof FrozenList) {
            return devices; // only this method makes them, and only pooled
        }
        return SHARED_DEVICES.of(new FrozenList<>(devices), d -> new FrozenList<>(StringPool.canonicalDevices(d)));
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
}
