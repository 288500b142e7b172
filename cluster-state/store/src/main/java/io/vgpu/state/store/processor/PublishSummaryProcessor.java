package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeSummary;

import java.util.Map;

/**
 * Writes a node's usage summary into the summary map unless the entry holds a later one
 * ({@link NodeSummary#supersedes}): publications that arrive out of order, or a republication of a version already
 * published, change nothing and fire no event.
 *
 * @param summary the summary to publish
 */
public record PublishSummaryProcessor(NodeSummary summary) implements EntryProcessor<String, NodeSummary, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, NodeSummary> entry) {
        if (!summary.supersedes(entry.getValue())) {
            return false;
        }
        entry.setValue(summary);
        return true;
    }
}
