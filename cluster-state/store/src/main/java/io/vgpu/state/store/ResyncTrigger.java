package io.vgpu.state.store;

import com.hazelcast.cluster.Member;
import com.hazelcast.map.MapPartitionLostEvent;
import com.hazelcast.map.listener.MapPartitionLostListener;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.PartitionService;
import com.hazelcast.partition.ReplicaMigrationEvent;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Tells the ingesting side which keys it must re-read from its informer cache (DESIGN.md §3 "Ingest once"): a
 * replica ingests events only for the keys it owns, so an event that arrived while a key changed owner, or whose
 * entry was lost with all its replicas, may be missing. Fired when this member became the owner of a partition
 * (migration or promotion after a member left) and when a partition of the node or quota map was lost. The
 * predicate matches node names and namespaces alike (keys are partitioned the same way) and only those this
 * member owns when it is evaluated.
 *
 * <p>Partitions taken over within {@link #COALESCE_MILLIS} of the first are told in ONE call, with a predicate over all
 * of them: each listener walks every cached pod and every owned key once per call, and a replica joining a cluster
 * takes over up to all 271 partitions one event at a time. Told one by one, a join with 50,000 cached pods walked
 * 271 × 50,000 pods on each member while the benchmark's fan-out row started (one decision in its 10 s window, 11 s
 * of replica CPU per decision); coalesced, the walk runs a few times.
 */
final class ResyncTrigger implements MigrationListener, MapPartitionLostListener {

    /** How long partitions taken over are collected before the listeners are told of them together. */
    static final long COALESCE_MILLIS = 200;

    private final PartitionService partitions;
    private final Executor delayed;
    private final Set<Integer> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Predicate<String> ownsKey;
    private final List<Consumer<Predicate<String>>> listeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> afterMigrations = new CopyOnWriteArrayList<>();

    ResyncTrigger(PartitionService partitions, Predicate<String> ownsKey) {
        this(partitions, ownsKey, CompletableFuture.delayedExecutor(COALESCE_MILLIS, TimeUnit.MILLISECONDS));
    }

    /** @param delayed runs the flush of the partitions collected, {@link #COALESCE_MILLIS} after the first (tests) */
    ResyncTrigger(PartitionService partitions, Predicate<String> ownsKey, Executor delayed) {
        this.partitions = partitions;
        this.ownsKey = ownsKey;
        this.delayed = delayed;
    }

    void add(Consumer<Predicate<String>> listener) {
        listeners.add(listener);
    }

    /** Runs {@code task} (on a Hazelcast thread: hand work over) each time a round of migrations has finished. */
    void afterMigrations(Runnable task) {
        afterMigrations.add(task);
    }

    @Override
    public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
        Member destination = event.getDestination();
        if (event.getReplicaIndex() == 0 && destination != null && destination.localMember()) {
            fire(event.getPartitionId());
        }
    }

    @Override
    public void partitionLost(MapPartitionLostEvent event) {
        fire(event.getPartitionId());
    }

    @Override
    public void migrationStarted(MigrationState state) {
        // only completed ownership changes matter
    }

    @Override
    public void migrationFinished(MigrationState state) {
        // replicaMigrationCompleted has reported each partition taken over; the keys given away are dropped now
        afterMigrations.forEach(Runnable::run);
    }

    @Override
    public void replicaMigrationFailed(ReplicaMigrationEvent event) {
        // the partition stays where it was: nothing moved
    }

    private void fire(int partitionId) {
        pending.add(partitionId);
        if (scheduled.compareAndSet(false, true)) {
            delayed.execute(this::flush);
        }
    }

    /** Tells the listeners of every partition collected since the last flush, in one call. */
    private void flush() {
        scheduled.set(false); // before draining: a partition added after the drain schedules the next flush
        Set<Integer> ids = new HashSet<>();
        for (Integer id : pending) {
            if (pending.remove(id)) {
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        Predicate<String> keys = key -> ids.contains(partitions.getPartition(key).getPartitionId())
                && ownsKey.test(key);
        listeners.forEach(l -> l.accept(keys));
    }
}
