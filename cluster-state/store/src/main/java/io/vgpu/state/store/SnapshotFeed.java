package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import java.util.concurrent.Executor;

/**
 * The entry listener that feeds a {@link LocalSnapshot}: hands every event to it through the replica's view feed
 * (see {@link HazelcastClusterState#start(StoreConfig, Executor)}). In production the feed runs each event at once on
 * Hazelcast's event thread; a test or the chaos harness installs one that runs them later, in order, for a replica
 * whose view lags the shared state.
 *
 * @param <V> the map's value
 */
final class SnapshotFeed<V> implements EntryAddedListener<String, V>, EntryUpdatedListener<String, V>,
        EntryRemovedListener<String, V> {

    private final LocalSnapshot<V, ?> target;
    private final Executor feed;

    /**
     * @param target the snapshot to feed
     * @param feed   runs each event, in the order given (the events of one key must stay in order)
     */
    SnapshotFeed(LocalSnapshot<V, ?> target, Executor feed) {
        this.target = target;
        this.feed = feed;
    }

    @Override
    public void entryAdded(EntryEvent<String, V> event) {
        feed.execute(() -> target.entryAdded(event));
    }

    @Override
    public void entryUpdated(EntryEvent<String, V> event) {
        feed.execute(() -> target.entryUpdated(event));
    }

    @Override
    public void entryRemoved(EntryEvent<String, V> event) {
        feed.execute(() -> target.entryRemoved(event));
    }
}
