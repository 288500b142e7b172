package io.vgpu.state.store;

import com.hazelcast.partition.Partition;
import com.hazelcast.partition.PartitionService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Hazelcast partition of each key, looked up once per key. {@link PartitionService#getPartition} serializes the
 * key to hash it on every call, and "do I own this node?" is asked on every decision, event and sweep (2.9 % of a
 * warm replica's samples). A key's partition never changes while the member runs (the partition count is fixed);
 * its owner does, and the {@link Partition} answers {@link Partition#getOwner()} from the live partition table, so
 * only the key-to-partition step is kept. Keys are node names and namespaces; past {@link #MAX_KEYS} a key is looked
 * up each time instead of kept (a bound, not an eviction: real clusters stay far below it).
 */
final class KeyPartitions {

    static final int MAX_KEYS = 100_000;

    private final PartitionService service;
    private final Map<String, Partition> byKey = new ConcurrentHashMap<>();

    KeyPartitions(PartitionService service) {
        this.service = service;
    }

    /** The partition {@code key} hashes to (null only when Hazelcast has none, as it may while shutting down). */
    Partition of(String key) {
        Partition partition = byKey.get(key);
        if (partition != null) {
            return partition;
        }
        partition = service.getPartition(key);
        if (partition != null && byKey.size() < MAX_KEYS) {
            byKey.put(key, partition);
        }
        return partition;
    }
}
