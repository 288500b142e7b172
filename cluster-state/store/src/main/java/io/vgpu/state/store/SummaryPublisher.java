package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.store.processor.PublishSummaryProcessor;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.logging.Level;

/**
 * The node map's LOCAL entry listener (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"): on the member that
 * owns a node's key, each change of the node's value is republished as its {@link NodeSummary} into the summary map
 * under the same key (so the same partition: the write stays on this member, plus its backup), and a removed node's
 * summary is removed. Only the summary map's events reach every replica; the value with its pod charges, and the old
 * value, never leave the owner and its backup.
 *
 * <p>Publications are version-checked where they are applied ({@link PublishSummaryProcessor}), so a late or repeated
 * one changes nothing. A change whose publication was lost (the owner died after the commit, before publishing) is
 * published by the new owner, which republishes every key it takes over ({@link #republish}).
 */
final class SummaryPublisher implements EntryAddedListener<String, NodeState>, EntryUpdatedListener<String, NodeState>,
        EntryRemovedListener<String, NodeState> {

    private static final ILogger LOG = Logger.getLogger(SummaryPublisher.class);

    private final IMap<String, NodeSummary> summaries;
    private final Executor publisher;

    /**
     * @param summaries the summary map
     * @param publisher runs each publication, in the order given (production: at once, on the event thread)
     */
    SummaryPublisher(IMap<String, NodeSummary> summaries, Executor publisher) {
        this.summaries = summaries;
        this.publisher = publisher;
    }

    @Override
    public void entryAdded(EntryEvent<String, NodeState> event) {
        NodeState value = event.getValue();
        publisher.execute(() -> republish(NodeSummary.of(value)));
    }

    @Override
    public void entryUpdated(EntryEvent<String, NodeState> event) {
        NodeState value = event.getValue();
        publisher.execute(() -> republish(NodeSummary.of(value)));
    }

    @Override
    public void entryRemoved(EntryEvent<String, NodeState> event) {
        String node = event.getKey();
        publisher.execute(() -> logFailure("remove the summary of " + node, summaries.removeAsync(node)));
    }

    /** Writes {@code summary} unless the summary map holds a later version. Never blocks. */
    void republish(NodeSummary summary) {
        logFailure("publish the summary of " + summary.name(),
                summaries.submitToKey(summary.name(), new PublishSummaryProcessor(summary)));
    }

    private static void logFailure(String what, CompletionStage<?> stage) {
        stage.whenComplete((result, error) -> {
            if (error != null) {
                LOG.log(Level.WARNING, what + " failed: " + error.getMessage());
            }
        });
    }
}
