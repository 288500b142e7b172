package io.vgpu.loadtest.bench;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the change events a replica receives (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"): since
 * issue 14 a replica's listeners with values are on the node-summary map (usage, every change) and the
 * node-inventory map (registration facts, when they change) only (the node map's listener is local: a member sees
 * only the changes of keys it owns, which are not fan-out). These listeners are registered like the store's (with
 * values, on both maps), so they receive exactly the events the store's listeners receive, and weigh each with
 * Hazelcast's own serialized sizes ({@code Data.totalSize()}, Compact) of its key, new value and old value:
 * <pre>
 *   bytes per event = key + new value + old value (when the event carries one; the maps are OBJECT and written by
 *                     entry processors, so update events carry none)
 * </pre>
 */
final class FanOutMeter implements AutoCloseable {

    private final IMap<String, NodeSummary> summaries;
    private final IMap<String, NodeFacts> inventory;
    private final SerializationService serialization;
    private final UUID registration;
    private final UUID inventoryRegistration;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile boolean counting;

    FanOutMeter(HazelcastClusterState state) {
        HazelcastInstance member = state.member();
        this.summaries = member.getMap(HazelcastMemberConfig.SUMMARY_MAP);
        this.serialization = ((SerializationServiceSupport) member).getSerializationService();
        this.inventory = member.getMap(HazelcastMemberConfig.INVENTORY_MAP);
        this.registration = summaries.addEntryListener(new Counter<NodeSummary>(), true);
        this.inventoryRegistration = inventory.addEntryListener(new Counter<NodeFacts>(), true);
    }

    /** Starts counting (at the start of the measured window). */
    void start() {
        events.set(0);
        bytes.set(0);
        counting = true;
    }

    /** Stops counting. */
    void stop() {
        counting = false;
    }

    long events() {
        return events.get();
    }

    /** The mean serialized size of a received event (key, new and old value), in bytes. */
    double meanEventBytes() {
        long n = events.get();
        return n == 0 ? 0 : (double) bytes.get() / n;
    }

    @Override
    public void close() {
        try {
            summaries.removeEntryListener(registration);
            inventory.removeEntryListener(inventoryRegistration);
        } catch (RuntimeException e) {
            // the member is shutting down
        }
    }

    private long size(Object value) {
        return value == null ? 0 : serialization.toData(value).totalSize();
    }

    private final class Counter<V> implements EntryAddedListener<String, V>, EntryUpdatedListener<String, V>,
            EntryRemovedListener<String, V> {

        private void count(EntryEvent<String, V> e) {
            if (counting) {
                events.incrementAndGet();
                bytes.addAndGet(size(e.getKey()) + size(e.getValue()) + size(e.getOldValue()));
            }
        }

        @Override
        public void entryAdded(EntryEvent<String, V> event) {
            count(event);
        }

        @Override
        public void entryUpdated(EntryEvent<String, V> event) {
            count(event);
        }

        @Override
        public void entryRemoved(EntryEvent<String, V> event) {
            count(event);
        }
    }
}
