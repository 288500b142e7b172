package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.store.processor.PublishFactsProcessor;
import io.vgpu.state.store.processor.PublishSummaryProcessor;

import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.logging.Level;

/**
 * The node map's LOCAL entry listener (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"): on the member that
 * owns a node's key, each change of the node's value is republished as its {@link NodeSummary} (usage only) into the
 * summary map, and, when the node's registration facts changed, first as its {@link NodeFacts} into the inventory
 * map, both under the same key (so the same partition: the writes stay on this member, plus its backup); a removed
 * node's summary and facts are removed. Only those two maps' events reach every replica; the value with its pod
 * charges never leaves the owner and its backup, and a decision (which changes usage, never facts) sends a summary
 * only.
 *
 * <p>Publications are version-checked where they are applied ({@link PublishSummaryProcessor},
 * {@link PublishFactsProcessor}), so a late or repeated one changes nothing. Which facts this member published last
 * is remembered per key (their fingerprint), so an unchanged node's facts are not sent again; a publication that
 * failed is forgotten, so the next change sends it again. A change whose publication was lost (the owner died after
 * the commit, before publishing) is published by the new owner, which republishes summary and facts of every key it
 * takes over ({@link #republish}), after making its version jump past any an earlier owner published
 * ({@link TakeOvers}).
 */
final class SummaryPublisher implements EntryAddedListener<String, NodeState>, EntryUpdatedListener<String, NodeState>,
        EntryRemovedListener<String, NodeState> {

    private static final ILogger LOG = Logger.getLogger(SummaryPublisher.class);

    private final IMap<String, NodeSummary> summaries;
    private final IMap<String, NodeFacts> inventory;
    private final Executor publisher;
    /** Per owned key, the fingerprint of the facts this member published last (absent: publish them). */
    private final Map<String, Long> publishedFacts = new ConcurrentHashMap<>();

    /**
     * @param summaries the summary map
     * @param inventory the inventory map
     * @param publisher runs each publication, in the order given (production: at once, on the event thread)
     */
    SummaryPublisher(IMap<String, NodeSummary> summaries, IMap<String, NodeFacts> inventory, Executor publisher) {
        this.summaries = summaries;
        this.inventory = inventory;
        this.publisher = publisher;
    }

    @Override
    public void entryAdded(EntryEvent<String, NodeState> event) {
        NodeState value = event.getValue();
        publisher.execute(() -> publish(value, false, false));
    }

    @Override
    public void entryUpdated(EntryEvent<String, NodeState> event) {
        NodeState value = event.getValue();
        publisher.execute(() -> publish(value, false, false));
    }

    @Override
    public void entryRemoved(EntryEvent<String, NodeState> event) {
        String node = event.getKey();
        publisher.execute(() -> {
            publishedFacts.remove(node);
            logFailure("remove the facts of " + node, inventory.removeAsync(node));
            logFailure("remove the summary of " + node, summaries.removeAsync(node));
        });
    }

    /**
     * A new owner's catch-up, or after a merge ({@code reset}): publishes the summary and the facts of {@code value},
     * the facts even when this member published the same ones before (the inventory map drops a repeat). Never
     * blocks.
     */
    void republish(NodeState value, boolean reset) {
        publish(value, true, reset);
    }

    private void publish(NodeState value, boolean always, boolean reset) {
        NodeSummary summary = NodeSummary.of(value);
        NodeFacts facts = NodeFacts.of(value);
        if (facts != null) {
            Long before = publishedFacts.put(value.name(), facts.hash());
            if (always || before == null || before != facts.hash()) {
                NodeFacts sent = reset ? facts.asReset() : facts;
                logFailure("publish the facts of " + value.name(),
                        inventory.submitToKey(value.name(), new PublishFactsProcessor(sent)),
                        () -> publishedFacts.remove(value.name(), sent.hash()));
            }
        }
        logFailure("publish the summary of " + value.name(), summaries.submitToKey(value.name(),
                new PublishSummaryProcessor(reset ? summary.asReset() : summary)));
    }

    private static void logFailure(String what, CompletionStage<?> stage) {
        logFailure(what, stage, () -> { });
    }

    private static void logFailure(String what, CompletionStage<?> stage, Runnable undo) {
        stage.whenComplete((result, error) -> {
            if (error != null) {
                undo.run();
                LOG.log(Level.WARNING, what + " failed: " + error.getMessage());
            }
        });
    }
}
