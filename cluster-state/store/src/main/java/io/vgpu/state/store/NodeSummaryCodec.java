package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.StringPool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Compact layout of {@link NodeSummary}, the value every replica receives on each change of a node: the
 * registration facts in {@link NodeStateCodec}'s columns, then three columns of per-GPU usage ({@code used},
 * {@code usedMem}, {@code usedCores}), the lock holder and the version. No pod appears in it, so its size is set by
 * the node's GPUs. A view is rebuilt as each card's idle usage plus its columns, which is how
 * {@link io.vgpu.state.model.NodeState#view()} adds the charges up (it never records MIG placements in use).
 */
final class NodeSummaryCodec {

    private NodeSummaryCodec() {
    }

    static void write(CompactWriter w, NodeSummary summary) {
        w.writeString("name", summary.name());
        w.writeInt64("version", summary.version());
        w.writeBoolean("reset", summary.reset());
        w.writeCompact("lock", summary.lock());
        NodeView view = summary.view();
        w.writeBoolean("registered", view != null);
        List<DeviceUsage> usage = view == null ? List.of() : view.devices();
        List<GpuDevice> devices = new ArrayList<>(usage.size());
        int[] used = new int[usage.size()];
        int[] usedMem = new int[usage.size()];
        int[] usedCores = new int[usage.size()];
        for (int i = 0; i < usage.size(); i++) {
            DeviceUsage u = usage.get(i);
            devices.add(new GpuDevice(u.id(), u.index(), u.count(), u.totalmem(), u.totalcore(), u.type(), u.numa(),
                    u.mode(), u.migProfiles(), u.health()));
            used[i] = u.used();
            usedMem[i] = u.usedmem();
            usedCores[i] = u.usedcores();
        }
        StringTable table = NodeStateCodec.writeFacts(w, devices, view == null ? Map.of() : view.annotations(),
                view == null ? Map.of() : view.pairScores());
        w.writeArrayOfInt32("used", used);
        w.writeArrayOfInt32("usedMem", usedMem);
        w.writeArrayOfInt32("usedCores", usedCores);
        w.writeArrayOfString("strings", table.extra());
    }

    static NodeSummary read(CompactReader r) {
        String name = StringPool.canonical(r.readString("name"));
        NodeView view = null;
        if (r.readBoolean("registered")) {
            StringTable.Reader table = StringTable.Reader.pooled(r.readArrayOfString("deviceIds"),
                    r.readArrayOfString("strings"));
            List<GpuDevice> devices = NodeStateCodec.readDevices(r, table);
            int[] used = r.readArrayOfInt32("used");
            int[] usedMem = r.readArrayOfInt32("usedMem");
            int[] usedCores = r.readArrayOfInt32("usedCores");
            List<DeviceUsage> usage = new ArrayList<>(devices.size());
            for (int i = 0; i < devices.size(); i++) {
                usage.add(DeviceUsage.idle(devices.get(i)).plus(used[i], usedMem[i], usedCores[i]));
            }
            view = new NodeView(name, usage, NodeStateCodec.readAnnotations(r),
                    NodeStateCodec.readPairScores(r, table));
        }
        return new NodeSummary(name, r.readInt64("version"), view, r.readCompact("lock"), r.readBoolean("reset"));
    }
}
