package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Canonical instances of the few strings that repeat across a replica's state: GPU UUIDs, model names, modes,
 * vendor words, namespaces, node names, annotation keys. At 10,000 nodes and 200,000 pods every pod's charge, the
 * store's value, the listener-fed snapshot and the informer caches would otherwise each hold their own copy of
 * the same words (issue 6, docs/benchmarks.md). Only values that recur may go in: pod UIDs and names never do.
 *
 * <p>Contract: {@link #canonical(String)} returns a string {@link String#equals equal} to its argument (the value
 * never changes, so callers may pool anywhere, entry processors included, without changing any result), and the
 * same instance for equal arguments while the pool holds it. The pool is bounded: when it reaches its capacity it
 * starts afresh (strings already handed out stay valid; only the sharing of later ones restarts), so words of
 * nodes long gone never pile up. Thread-safe and lock-free for hits.
 */
public final class StringPool {

    /** Capacity of {@link #SHARED}: 80,000 GPU UUIDs, 10,000 node names and the namespaces fit many times over. */
    static final int SHARED_CAPACITY = 1 << 18;

    /** The process-wide pool. */
    public static final StringPool SHARED = new StringPool(SHARED_CAPACITY);

    private final ValuePool<String> pool;

    /** @param capacity how many distinct strings the pool holds before it starts afresh (at least 1) */
    public StringPool(int capacity) {
        this.pool = new ValuePool<>(capacity);
    }

    /** The canonical instance of {@code value} in {@link #SHARED}; null stays null. */
    public static String canonical(String value) {
        return SHARED.of(value);
    }

    /**
     * The canonical instance of {@code value}: equal to it, the same instance for equal values; null stays null.
     */
    public String of(String value) {
        return pool.of(value);
    }

    /** How many strings the pool holds now. */
    public int size() {
        return pool.size();
    }

    /**
     * An equal allocation whose GPU UUIDs and vendor words are canonical (container order, indexes and amounts
     * kept).
     */
    public static PodAllocation canonical(PodAllocation allocation) {
        if (allocation == null) {
            return null;
        }
        List<List<ContainerDevice>> containers = new ArrayList<>(allocation.containers().size());
        for (List<ContainerDevice> container : allocation.containers()) {
            List<ContainerDevice> devices = new ArrayList<>(container.size());
            for (ContainerDevice d : container) {
                devices.add(new ContainerDevice(d.idx(), canonical(d.uuid()), canonical(d.type()), d.usedmem(),
                        d.usedcores()));
            }
            containers.add(devices);
        }
        return new PodAllocation(containers, allocation.initCount());
    }

    /** An equal pod reference whose namespace is canonical (UID and name are per pod, kept as they are). */
    public static PodRef canonical(PodRef pod) {
        return pod == null ? null : new PodRef(pod.uid(), canonical(pod.namespace()), pod.name());
    }

    /** Equal devices whose GPU UUIDs, model names, modes and MIG profile names are canonical (order kept). */
    static List<GpuDevice> canonicalDevices(List<GpuDevice> devices) {
        List<GpuDevice> out = new ArrayList<>(devices.size());
        for (GpuDevice d : devices) {
            List<MigProfile> profiles = new ArrayList<>(d.migProfiles().size());
            for (MigProfile p : d.migProfiles()) {
                profiles.add(new MigProfile(canonical(p.name()), p.memoryMB(), p.core(), p.sliceCount(),
                        p.placements()));
            }
            out.add(new GpuDevice(canonical(d.id()), d.index(), d.count(), d.devmem(), d.devcore(),
                    canonical(d.type()), d.numa(), canonical(d.mode()), profiles, d.health()));
        }
        return List.copyOf(out);
    }

    /** An equal inventory whose node name, GPU UUIDs, model names, modes and MIG profile names are canonical. */
    public static NodeInventory canonical(NodeInventory inventory) {
        if (inventory == null) {
            return null;
        }
        List<GpuDevice> devices = canonicalDevices(inventory.devices());
        Map<String, Map<String, Integer>> scores = new LinkedHashMap<>();
        inventory.pairScores().forEach((from, row) -> {
            Map<String, Integer> out = new LinkedHashMap<>();
            row.forEach((to, score) -> out.put(canonical(to), score));
            scores.put(canonical(from), out);
        });
        return new NodeInventory(canonical(inventory.name()), devices, inventory.annotations(), scores);
    }
}
