package io.vgpu.state.store;

import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.ViewChanges;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * This replica's view of every node (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"): the newest
 * {@link NodeSummary} (usage) and the newest {@link NodeFacts} (registration) of each node, fed by the summary and
 * inventory maps' listeners, and their join, the {@link NodeView} scoring reads, derived once per change of either.
 *
 * <p>A node is in the view only while the summary and the facts held name the same facts ({@link NodeSummary#view}):
 * a summary computed against facts this replica does not hold yet (a re-registration whose facts event is still on
 * its way, or the other way round) is kept, and the node is left out of scoring until the other half arrives; it is
 * never scored on the old facts with the new usage. The two maps' events may arrive on different threads: each
 * change re-joins the key inside one atomic {@code compute} that reads both halves after its own write, so the last
 * join of a key always sees both latest halves.
 */
final class NodeViews {

    private final Map<String, NodeView> views = new ConcurrentHashMap<>();
    /** Which views changed, in order (after each change is in place): a filter redoes only those nodes. */
    private final ViewChanges changes = new ViewChanges();
    private final LocalSnapshot<NodeSummary, Void> summaries = new LocalSnapshot<>(s -> null,
            NodeSummary::supersedes, this::join);
    private final LocalSnapshot<NodeFacts, Void> facts = new LocalSnapshot<>(f -> null,
            (next, current) -> next.reset() || next.version() > current.version(), this::join);

    /** The summary map's listener target. */
    LocalSnapshot<NodeSummary, Void> summaries() {
        return summaries;
    }

    /** The inventory map's listener target. */
    LocalSnapshot<NodeFacts, Void> facts() {
        return facts;
    }

    /** Starts a full reload of both halves (after a merge). */
    void beginLoad() {
        summaries.beginLoad();
        facts.beginLoad();
    }

    /** Both maps' content, read after their listeners were registered (or after {@link #beginLoad}). */
    void load(Map<String, NodeSummary> allSummaries, Map<String, NodeFacts> allFacts) {
        facts.load(allFacts);
        summaries.load(allSummaries);
    }

    NodeView get(String name) {
        return views.get(name);
    }

    /** The log of changed views. */
    ViewChanges changes() {
        return changes;
    }

    /** The summary the view of {@code name} was joined from (null: none), e.g. to tell its version. */
    NodeSummary summary(String name) {
        return summaries.get(name);
    }

    /** The version of every summary held of a node {@code keys} matches (a new owner's floor, {@link TakeOvers}). */
    Map<String, Long> versions(Predicate<String> keys) {
        Map<String, Long> out = new HashMap<>();
        for (NodeSummary s : summaries.values()) {
            if (keys.test(s.name())) {
                out.put(s.name(), s.version());
            }
        }
        return out;
    }

    Collection<NodeView> all() {
        return Collections.unmodifiableCollection(views.values());
    }

    private void join(String name) {
        views.compute(name, (k, before) -> {
            NodeSummary summary = summaries.get(k);
            return summary == null ? null : summary.view(facts.get(k));
        });
        changes.changed(name);
    }
}
