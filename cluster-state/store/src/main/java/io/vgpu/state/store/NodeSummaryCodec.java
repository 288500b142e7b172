package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.GpuUse;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.StringPool;

import java.util.ArrayList;
import java.util.List;

/**
 * The Compact layout of {@link NodeSummary}, the value every replica receives on each change of a node: name,
 * version, the fingerprint of the facts it belongs to, the lock holder, then three columns of per-GPU use
 * ({@code used}, {@code usedMem}, {@code usedCores}; absent when the node is not registered). No pod and no
 * registration fact appears in it (those travel once per registration, {@link NodeFactsCodec}), so its size is a few
 * dozen bytes plus 12 per GPU.
 */
final class NodeSummaryCodec {

    private NodeSummaryCodec() {
    }

    static void write(CompactWriter w, NodeSummary summary) {
        w.writeString("name", summary.name());
        w.writeInt64("version", summary.version());
        w.writeInt64("factsHash", summary.factsHash());
        w.writeBoolean("reset", summary.reset());
        w.writeCompact("lock", summary.lock());
        List<GpuUse> usage = summary.usage();
        if (usage == null) {
            w.writeArrayOfInt32("used", null);
            w.writeArrayOfInt32("usedMem", null);
            w.writeArrayOfInt32("usedCores", null);
            return;
        }
        int[] used = new int[usage.size()];
        int[] usedMem = new int[usage.size()];
        int[] usedCores = new int[usage.size()];
        for (int i = 0; i < usage.size(); i++) {
            GpuUse u = usage.get(i);
            used[i] = u.used();
            usedMem[i] = u.usedMem();
            usedCores[i] = u.usedCores();
        }
        w.writeArrayOfInt32("used", used);
        w.writeArrayOfInt32("usedMem", usedMem);
        w.writeArrayOfInt32("usedCores", usedCores);
    }

    static NodeSummary read(CompactReader r) {
        String name = StringPool.canonical(r.readString("name"));
        int[] used = r.readArrayOfInt32("used");
        List<GpuUse> usage = null;
        if (used != null) {
            int[] usedMem = r.readArrayOfInt32("usedMem");
            int[] usedCores = r.readArrayOfInt32("usedCores");
            usage = new ArrayList<>(used.length);
            for (int i = 0; i < used.length; i++) {
                usage.add(new GpuUse(used[i], usedMem[i], usedCores[i]));
            }
        }
        return new NodeSummary(name, r.readInt64("version"), r.readInt64("factsHash"), usage, r.readCompact("lock"),
                r.readBoolean("reset"));
    }
}
