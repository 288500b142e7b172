package io.vgpu.state.store.processor;

import com.hazelcast.map.EntryProcessor;
import io.vgpu.state.model.NodeFacts;

import java.util.Map;

/**
 * Writes a node's registration facts into the inventory map when they {@link NodeFacts#replaces replace} the entry's:
 * the same facts again (a new owner's republication, a change of usage only) and late copies of older facts change
 * nothing and fire no event.
 *
 * @param facts the facts to publish
 */
public record PublishFactsProcessor(NodeFacts facts) implements EntryProcessor<String, NodeFacts, Boolean> {

    @Override
    public Boolean process(Map.Entry<String, NodeFacts> entry) {
        if (!facts.replaces(entry.getValue())) {
            return false;
        }
        entry.setValue(facts);
        return true;
    }
}
