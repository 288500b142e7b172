package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.QuotaCharge;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.QuotaState;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compact serializers of the stored values ({@link NodeState} and {@link NodeInventory} through
 * {@link NodeStateCodec}; {@link QuotaState}), of what the processors carry and of their outcomes. Collections are
 * written as parallel arrays (no per-element object headers).
 */
final class ValueSerializers {

    private ValueSerializers() {
    }

    /** Every value and outcome serializer. */
    static List<CompactSerializer<?>> all() {
        return List.of(
                RecordSerializer.of(PodAllocation.class, "vgpu.PodAllocation", ValueSerializers::writeAllocation,
                        ValueSerializers::readAllocation),
                RecordSerializer.of(NodeInventory.class, "vgpu.NodeInventory", NodeStateCodec::writeInventory,
                        NodeStateCodec::readInventory),
                RecordSerializer.of(NodeLockHolder.class, "vgpu.NodeLockHolder", ValueSerializers::writeHolder,
                        ValueSerializers::readHolder),
                RecordSerializer.of(NodeState.class, "vgpu.NodeState", NodeStateCodec::writeNode,
                        NodeStateCodec::readNode),
                RecordSerializer.of(NodeSummary.class, "vgpu.NodeSummary", NodeSummaryCodec::write,
                        NodeSummaryCodec::read),
                RecordSerializer.of(NodeFacts.class, "vgpu.NodeFacts", NodeFactsCodec::write, NodeFactsCodec::read),
                RecordSerializer.of(QuotaLimits.class, "vgpu.QuotaLimits", ValueSerializers::writeLimits,
                        ValueSerializers::readLimits),
                RecordSerializer.of(QuotaState.class, "vgpu.QuotaState", ValueSerializers::writeQuota,
                        ValueSerializers::readQuota),

                RecordSerializer.of(ReserveOutcome.Reserved.class, "vgpu.ReserveOutcome.Reserved",
                        (w, v) -> w.writeInt64("deadlineMillis", v.deadlineMillis()),
                        r -> new ReserveOutcome.Reserved(r.readInt64("deadlineMillis"))),
                RecordSerializer.marker(ReserveOutcome.Refused.class, "vgpu.ReserveOutcome.Refused",
                        new ReserveOutcome.Refused()),
                RecordSerializer.of(ReserveOutcome.AlreadyBound.class, "vgpu.ReserveOutcome.AlreadyBound",
                        (w, v) -> w.writeCompact("allocation", v.allocation()),
                        r -> new ReserveOutcome.AlreadyBound(r.readCompact("allocation"))),
                RecordSerializer.marker(ReserveOutcome.UnknownNode.class, "vgpu.ReserveOutcome.UnknownNode",
                        new ReserveOutcome.UnknownNode()),

                RecordSerializer.of(ConfirmOutcome.Confirmed.class, "vgpu.ConfirmOutcome.Confirmed",
                        (w, v) -> w.writeString("via", v.via().name()),
                        r -> new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.valueOf(r.readString("via")))),
                RecordSerializer.marker(ConfirmOutcome.Refused.class, "vgpu.ConfirmOutcome.Refused",
                        new ConfirmOutcome.Refused()),
                RecordSerializer.marker(ConfirmOutcome.Missing.class, "vgpu.ConfirmOutcome.Missing",
                        new ConfirmOutcome.Missing()),
                RecordSerializer.marker(ConfirmOutcome.UnknownNode.class, "vgpu.ConfirmOutcome.UnknownNode",
                        new ConfirmOutcome.UnknownNode()),

                RecordSerializer.of(ConfirmLockOutcome.class, "vgpu.ConfirmLockOutcome",
                        (w, v) -> {
                            w.writeCompact("confirm", v.confirm());
                            w.writeCompact("lock", v.lock());
                        },
                        r -> new ConfirmLockOutcome(r.readCompact("confirm"), r.readCompact("lock"))),

                RecordSerializer.of(LockOutcome.Acquired.class, "vgpu.LockOutcome.Acquired",
                        (w, v) -> {
                            w.writeInt64("sinceMillis", v.sinceMillis());
                            w.writeCompact("replaced", v.replaced());
                        },
                        r -> new LockOutcome.Acquired(r.readInt64("sinceMillis"), r.readCompact("replaced"))),
                RecordSerializer.of(LockOutcome.Held.class, "vgpu.LockOutcome.Held",
                        (w, v) -> w.writeInt64("sinceMillis", v.sinceMillis()),
                        r -> new LockOutcome.Held(r.readInt64("sinceMillis"))),
                RecordSerializer.of(LockOutcome.Contended.class, "vgpu.LockOutcome.Contended",
                        (w, v) -> w.writeCompact("holder", v.holder()),
                        r -> new LockOutcome.Contended(r.readCompact("holder"))),
                RecordSerializer.marker(LockOutcome.UnknownNode.class, "vgpu.LockOutcome.UnknownNode",
                        new LockOutcome.UnknownNode()),

                RecordSerializer.marker(UnlockOutcome.Unlocked.class, "vgpu.UnlockOutcome.Unlocked",
                        new UnlockOutcome.Unlocked()),
                RecordSerializer.of(UnlockOutcome.NotHolder.class, "vgpu.UnlockOutcome.NotHolder",
                        (w, v) -> w.writeCompact("holder", v.holder()),
                        r -> new UnlockOutcome.NotHolder(r.readCompact("holder"))),
                RecordSerializer.marker(UnlockOutcome.NotLocked.class, "vgpu.UnlockOutcome.NotLocked",
                        new UnlockOutcome.NotLocked()),

                RecordSerializer.of(QuotaOutcome.Reserved.class, "vgpu.QuotaOutcome.Reserved",
                        (w, v) -> w.writeInt64("deadlineMillis", v.deadlineMillis()),
                        r -> new QuotaOutcome.Reserved(r.readInt64("deadlineMillis"))),
                RecordSerializer.of(QuotaOutcome.Exceeded.class, "vgpu.QuotaOutcome.Exceeded",
                        (w, v) -> {
                            w.writeBoolean("memory", v.memory());
                            w.writeBoolean("cores", v.cores());
                        },
                        r -> new QuotaOutcome.Exceeded(r.readBoolean("memory"), r.readBoolean("cores"))));
    }

    // ---------------------------------------------------------------- allocations and lock holders

    /** Containers flattened: their sizes, then one column per device field. */
    private static void writeAllocation(CompactWriter w, PodAllocation a) {
        List<List<ContainerDevice>> containers = a.containers();
        int total = 0;
        int[] sizes = new int[containers.size()];
        for (int c = 0; c < sizes.length; c++) {
            sizes[c] = containers.get(c).size();
            total += sizes[c];
        }
        int[] idx = new int[total];
        String[] uuids = new String[total];
        String[] types = new String[total];
        int[] mem = new int[total];
        int[] cores = new int[total];
        int at = 0;
        for (List<ContainerDevice> container : containers) {
            for (ContainerDevice d : container) {
                idx[at] = d.idx();
                uuids[at] = d.uuid();
                types[at] = d.type();
                mem[at] = d.usedmem();
                cores[at] = d.usedcores();
                at++;
            }
        }
        w.writeInt32("initCount", a.initCount());
        w.writeArrayOfInt32("containerSizes", sizes);
        w.writeArrayOfInt32("idx", idx);
        w.writeArrayOfString("uuids", uuids);
        w.writeArrayOfString("types", types);
        w.writeArrayOfInt32("usedmem", mem);
        w.writeArrayOfInt32("usedcores", cores);
    }

    private static PodAllocation readAllocation(CompactReader r) {
        int[] sizes = r.readArrayOfInt32("containerSizes");
        int[] idx = r.readArrayOfInt32("idx");
        String[] uuids = r.readArrayOfString("uuids");
        String[] types = r.readArrayOfString("types");
        int[] mem = r.readArrayOfInt32("usedmem");
        int[] cores = r.readArrayOfInt32("usedcores");
        List<List<ContainerDevice>> containers = new ArrayList<>(sizes.length);
        int at = 0;
        for (int size : sizes) {
            List<ContainerDevice> container = new ArrayList<>(size);
            for (int i = 0; i < size; i++, at++) {
                container.add(new ContainerDevice(idx[at], uuids[at], types[at], mem[at], cores[at]));
            }
            containers.add(container);
        }
        return new PodAllocation(containers, r.readInt32("initCount"));
    }

    private static void writeHolder(CompactWriter w, NodeLockHolder h) {
        w.writeString("namespace", h.namespace());
        w.writeString("name", h.name());
        w.writeInt64("sinceMillis", h.sinceMillis());
    }

    private static NodeLockHolder readHolder(CompactReader r) {
        return new NodeLockHolder(r.readString("namespace"), r.readString("name"), r.readInt64("sinceMillis"));
    }

    // ---------------------------------------------------------------- quota

    private static void writeLimits(CompactWriter w, QuotaLimits l) {
        w.writeInt64("memory", l.memory());
        w.writeBoolean("memorySet", l.memorySet());
        w.writeInt64("cores", l.cores());
        w.writeBoolean("coresSet", l.coresSet());
    }

    private static QuotaLimits readLimits(CompactReader r) {
        return new QuotaLimits(r.readInt64("memory"), r.readBoolean("memorySet"), r.readInt64("cores"),
                r.readBoolean("coresSet"));
    }

    private static void writeQuota(CompactWriter w, QuotaState q) {
        w.writeString("namespace", q.namespace());
        writeLimits(w, q.limits());
        int n = q.charges().size();
        String[] uids = new String[n];
        long[] mem = new long[n];
        long[] cores = new long[n];
        long[] deadlines = new long[n];
        int i = 0;
        for (Map.Entry<String, QuotaCharge> e : q.charges().entrySet()) {
            uids[i] = e.getKey();
            mem[i] = e.getValue().mem();
            cores[i] = e.getValue().cores();
            deadlines[i] = e.getValue().deadlineMillis();
            i++;
        }
        w.writeArrayOfString("chargeUids", uids);
        w.writeArrayOfInt64("chargeMem", mem);
        w.writeArrayOfInt64("chargeCores", cores);
        w.writeArrayOfInt64("chargeDeadlines", deadlines);
    }

    private static QuotaState readQuota(CompactReader r) {
        String[] uids = r.readArrayOfString("chargeUids");
        long[] mem = r.readArrayOfInt64("chargeMem");
        long[] cores = r.readArrayOfInt64("chargeCores");
        long[] deadlines = r.readArrayOfInt64("chargeDeadlines");
        Map<String, QuotaCharge> charges = new LinkedHashMap<>();
        for (int i = 0; i < uids.length; i++) {
            charges.put(uids[i], new QuotaCharge(mem[i], cores[i], deadlines[i]));
        }
        return new QuotaState(r.readString("namespace"), readLimits(r), charges);
    }
}
