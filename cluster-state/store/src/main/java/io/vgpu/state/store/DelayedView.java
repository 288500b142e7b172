package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * TEST ONLY (the chaos harness's stale replica): hands every entry event to a {@link LocalSnapshot} a fixed delay
 * late, in arrival order, so that this replica decides on a view that lags the shared state. Decisions made on it
 * must still never over-commit: the entry processors re-check against the authoritative value.
 *
 * <p>Order is kept: one scheduler thread, one constant delay, so events fire in the order they were scheduled.
 *
 * @param <V> the map's value
 */
final class DelayedView<V> implements EntryAddedListener<String, V>, EntryUpdatedListener<String, V>,
        EntryRemovedListener<String, V> {

    private final LocalSnapshot<V, ?> target;
    private final long delayMillis;
    private final ScheduledExecutorService scheduler;

    /**
     * @param target      the snapshot to feed
     * @param delayMillis how late every event arrives
     * @param scheduler   a single-threaded scheduler (order)
     */
    DelayedView(LocalSnapshot<V, ?> target, long delayMillis, ScheduledExecutorService scheduler) {
        this.target = target;
        this.delayMillis = delayMillis;
        this.scheduler = scheduler;
    }

    @Override
    public void entryAdded(EntryEvent<String, V> event) {
        later(() -> target.entryAdded(event));
    }

    @Override
    public void entryUpdated(EntryEvent<String, V> event) {
        later(() -> target.entryUpdated(event));
    }

    @Override
    public void entryRemoved(EntryEvent<String, V> event) {
        later(() -> target.entryRemoved(event));
    }

    private void later(Runnable apply) {
        if (!scheduler.isShutdown()) {
            scheduler.schedule(apply, delayMillis, TimeUnit.MILLISECONDS);
        }
    }
}
