package io.vgpu.loadtest.bench;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Estimates the listener fan-out of the node map: every change of a {@code NodeState} is delivered to every
 * replica's snapshot listener with the key, the new and the old value (the store registers it with values). This
 * counts the change events (one light listener without values, on one replica: every replica receives the same
 * events) and, at the end, weighs them with the mean serialized size of the states that changed:
 * <pre>
 *   bytes/s per replica ≈ events/s × (key + 2 × mean serialized NodeState of the changed nodes)
 * </pre>
 * Sizes are Hazelcast's own serialized sizes ({@code Data.totalSize()}, Compact), measured once the run is over.
 */
final class FanOutMeter implements AutoCloseable {

    private final IMap<String, NodeState> nodes;
    private final HazelcastClusterState state;
    private final SerializationService serialization;
    private final UUID registration;
    private final AtomicLong events = new AtomicLong();
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    private volatile boolean counting;

    FanOutMeter(HazelcastClusterState state) {
        HazelcastInstance member = state.member();
        this.state = state;
        this.nodes = member.getMap(HazelcastMemberConfig.NODE_MAP);
        this.serialization = ((SerializationServiceSupport) member).getSerializationService();
        this.registration = nodes.addEntryListener(new Counter(), false);
    }

    /** Starts counting (at the start of the measured window). */
    void start() {
        events.set(0);
        changed.clear();
        counting = true;
    }

    /** Stops counting. */
    void stop() {
        counting = false;
    }

    long events() {
        return events.get();
    }

    /** The mean serialized size of a changed node's state and of its key, in bytes. */
    double meanEventBytes() {
        long total = 0;
        int n = 0;
        for (String key : changed) {
            NodeState s = state.nodeState(key);
            if (s != null) {
                total += serialization.toData(key).totalSize() + 2L * serialization.toData(s).totalSize();
                n++;
            }
        }
        return n == 0 ? 0 : (double) total / n;
    }

    /** Mean serialized size of one NodeState over all nodes, in bytes. */
    double meanStateBytes() {
        long total = 0;
        int n = 0;
        for (var view : state.nodes()) {
            NodeState s = state.nodeState(view.name());
            if (s != null) {
                total += serialization.toData(s).totalSize();
                n++;
            }
        }
        return n == 0 ? 0 : (double) total / n;
    }

    @Override
    public void close() {
        try {
            nodes.removeEntryListener(registration);
        } catch (RuntimeException e) {
            // the member is shutting down
        }
    }

    private final class Counter implements EntryAddedListener<String, NodeState>,
            EntryUpdatedListener<String, NodeState>, EntryRemovedListener<String, NodeState> {

        private void count(EntryEvent<String, NodeState> e) {
            if (counting) {
                events.incrementAndGet();
                changed.add(e.getKey());
            }
        }

        @Override
        public void entryAdded(EntryEvent<String, NodeState> event) {
            count(event);
        }

        @Override
        public void entryUpdated(EntryEvent<String, NodeState> event) {
            count(event);
        }

        @Override
        public void entryRemoved(EntryEvent<String, NodeState> event) {
            count(event);
        }
    }
}
