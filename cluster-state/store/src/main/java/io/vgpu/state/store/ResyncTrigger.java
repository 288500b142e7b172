package io.vgpu.state.store;

import com.hazelcast.cluster.Member;
import com.hazelcast.map.MapPartitionLostEvent;
import com.hazelcast.map.listener.MapPartitionLostListener;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.PartitionService;
import com.hazelcast.partition.ReplicaMigrationEvent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Tells the ingesting side which keys it must re-read from its informer cache (DESIGN.md §3 "Ingest once"): a
 * replica ingests events only for the keys it owns, so an event that arrived while a key changed owner, or whose
 * entry was lost with all its replicas, may be missing. Fired when this member became the owner of a partition
 * (migration or promotion after a member left) and when a partition of the node or quota map was lost. The
 * predicate matches node names and namespaces alike (keys are partitioned the same way) and only those this
 * member owns when it is evaluated.
 */
final class ResyncTrigger implements MigrationListener, MapPartitionLostListener {

    private final PartitionService partitions;
    private final Predicate<String> ownsKey;
    private final List<Consumer<Predicate<String>>> listeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> afterMigrations = new CopyOnWriteArrayList<>();

    ResyncTrigger(PartitionService partitions, Predicate<String> ownsKey) {
        this.partitions = partitions;
        this.ownsKey = ownsKey;
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
        Predicate<String> keys = key -> partitions.getPartition(key).getPartitionId() == partitionId
                && ownsKey.test(key);
        listeners.forEach(l -> l.accept(keys));
    }
}
