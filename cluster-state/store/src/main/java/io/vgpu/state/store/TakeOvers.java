package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeVersions;
import io.vgpu.state.store.processor.TakeOverProcessor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.logging.Level;

/**
 * A new owner's take-over of node keys (a migration in, a backup promoted, a lost partition, a merge): before it
 * republishes them, it makes each value's version jump to a new epoch ({@link NodeVersions#takeOver},
 * {@link TakeOverProcessor}) past every version it knows of, so that no version a lost owner published (a change its
 * summary announced and its backup never got) is ever reused: the value's next summaries supersede those copies in
 * the summary map and in every view, instead of being dropped as "not newer" (docs/reliability.md, "A version
 * reused").
 *
 * <p>What it knows of, per key: the value's version as read here, the version of the summary this replica's view
 * holds and the summary map's (the summary map's partition is this member's now, and its backup was on the same
 * member as the value's). A lost owner's copies are of its value's epoch, which the survivor shares unless a jump was
 * lost too (a jump is backed up like any change), so the value's own version is enough in the common case; the view
 * and the summary map add what a lost partition (no value at all) or a lost jump hides, as far as they got it.
 *
 * <p>A key that is absent when taken over but held in the view (its partition was lost with all its replicas: the
 * value and its summary are gone, every view still holds the old summary, and no removal event will come) is
 * remembered with the view's version as its floor; when ingest creates the key again (at version 1, far below the
 * views' copy), this member, its owner, sees it created (it listens to its own keys only) and makes it jump past the
 * floor. Floors of keys given away are forgotten ({@link #retainOwned}).
 *
 * <p>Costs nothing per decision: the jump is one processor per key taken over (one more summary event per key), and
 * the creation listener does a map lookup per key created.
 */
final class TakeOvers implements EntryAddedListener<String, NodeState> {

    private static final ILogger LOG = Logger.getLogger(TakeOvers.class);

    private final IMap<String, NodeState> nodes;
    private final IMap<String, NodeSummary> summaries;
    private final Function<Predicate<String>, Map<String, Long>> viewed;
    private final Predicate<String> ownsKey;
    /** Per key taken over while absent, the highest version this member saw of it then. */
    private final Map<String, Long> floors = new ConcurrentHashMap<>();

    /**
     * @param viewed  the versions this replica's view holds of the nodes a predicate matches
     * @param ownsKey whether this member owns a key right now
     */
    TakeOvers(IMap<String, NodeState> nodes, IMap<String, NodeSummary> summaries,
              Function<Predicate<String>, Map<String, Long>> viewed, Predicate<String> ownsKey) {
        this.nodes = nodes;
        this.summaries = summaries;
        this.viewed = viewed;
        this.ownsKey = ownsKey;
    }

    /**
     * Takes over the keys this member owns that {@code keys} matches: every present value jumps (its update event
     * publishes it), every absent one held in the view gets a floor. Blocking (reads, then waits for the jumps): run
     * it on a thread of its own, never on an event thread.
     *
     * @return the values as they are after their jump, to republish and to keep as owned ones
     */
    List<NodeState> takeOver(Predicate<String> keys) {
        Predicate<String> owned = key -> keys.test(key) && ownsKey.test(key);
        // floors first: a key created from now on finds its floor; one created before is read below
        Map<String, Long> seen = viewed.apply(owned);
        floors.putAll(seen);
        Set<String> taken = new HashSet<>();
        for (String key : nodes.localKeySet()) {
            if (owned.test(key)) {
                taken.add(key);
            }
        }
        if (taken.isEmpty()) {
            return List.of();
        }
        Map<String, NodeSummary> published = summaries.getAll(taken);
        List<Jump> jumps = new ArrayList<>();
        nodes.getAll(taken).forEach((key, value) -> {
            floors.remove(key);
            NodeSummary summary = published.get(key);
            long past = Math.max(value.version(), Math.max(seen.getOrDefault(key, -1L),
                    summary == null ? -1 : summary.version()));
            jumps.add(new Jump(value, nodes.submitToKey(key, new TakeOverProcessor(past)).toCompletableFuture()));
        });
        List<NodeState> after = new ArrayList<>();
        for (Jump jump : jumps) {
            // one key's failure (its partition moved on meanwhile, a lost quorum) leaves the others' jumps standing,
            // and its value as read is still republished (the catch-up of a change its owner never published)
            NodeState value = jump.after().handle((jumped, error) -> {
                if (error != null) {
                    LOG.log(Level.WARNING, "the take-over jump of " + jump.read().name() + " failed (its next "
                            + "take-over jumps it): " + error.getMessage());
                    return jump.read();
                }
                return jumped;
            }).join();
            if (value != null) {
                after.add(value);
            }
        }
        return after;
    }

    /** The node map's LOCAL listener: a key taken over while absent, created again here, jumps past its floor. */
    @Override
    public void entryAdded(EntryEvent<String, NodeState> event) {
        Long floor = floors.remove(event.getKey());
        NodeState value = event.getValue();
        if (floor == null || value == null || NodeVersions.epoch(value.version()) > NodeVersions.epoch(floor)) {
            return;
        }
        nodes.submitToKey(event.getKey(), new TakeOverProcessor(Math.max(floor, value.version())))
                .whenComplete((result, error) -> {
                    if (error != null) {
                        LOG.log(Level.WARNING, "the jump of " + event.getKey() + " created again after its partition "
                                + "was lost failed (its views stay behind until it is taken over again): "
                                + error.getMessage());
                    }
                });
    }

    /** Forgets the floors of keys another member owns now (after migrations). */
    void retainOwned() {
        floors.keySet().removeIf(ownsKey.negate());
    }

    /** A key's value as read at its take-over, and its jump (the value afterwards; null: the key went meanwhile). */
    private record Jump(NodeState read, CompletableFuture<NodeState> after) {
    }
}
