package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.StringPool;

/**
 * The Compact layout of {@link NodeFacts}, the value of the inventory map: name, version, fingerprint, reset, then
 * the facts in {@link NodeStateCodec}'s inventory columns. Sent to every replica only when a node's facts change.
 */
final class NodeFactsCodec {

    private NodeFactsCodec() {
    }

    static void write(CompactWriter w, NodeFacts facts) {
        w.writeInt64("version", facts.version());
        w.writeInt64("hash", facts.hash());
        w.writeBoolean("reset", facts.reset());
        NodeStateCodec.writeInventory(w, facts.inventory());
    }

    static NodeFacts read(CompactReader r) {
        var inventory = NodeStateCodec.readInventory(r);
        return new NodeFacts(StringPool.canonical(inventory.name()), r.readInt64("version"), r.readInt64("hash"),
                inventory, r.readBoolean("reset"));
    }
}
