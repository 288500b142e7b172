package io.vgpu.state.store;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.MigProfile;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.StringPool;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Compact layout of {@link NodeState} and {@link NodeInventory}: flat columns instead of nested objects (no
 * per-object header), and every repeated string (GPU UUIDs in pair scores and allocations, model names, modes,
 * namespaces, vendor words) written once in a {@link StringTable}. A node value is replicated to its backups and
 * sent to every replica's listener on each change, so its size is the store's main cost. Read back, the table's
 * strings and the node name are the {@link StringPool}'s instances: every deserialised copy of a node (the
 * listener-fed snapshot, processors from other members) shares them with the others.
 *
 * <p>Columns: devices ({@code device*}, their MIG profiles {@code mig*} and placements {@code placement*}),
 * Fit's annotations, pair scores ({@code pair*}), and for a node value the charges ({@code charge*}, one row per
 * pod), their containers ({@code containerSizes}) and device entries ({@code entry*}); then {@code strings}.
 */
final class NodeStateCodec {

    private NodeStateCodec() {
    }

    static void writeInventory(CompactWriter w, NodeInventory inventory) {
        w.writeString("name", inventory.name());
        StringTable table = writeFacts(w, inventory.devices(), inventory.annotations(), inventory.pairScores());
        w.writeArrayOfString("strings", table.extra());
    }

    static NodeInventory readInventory(CompactReader r) {
        StringTable.Reader table = StringTable.Reader.pooled(r.readArrayOfString("deviceIds"),
                r.readArrayOfString("strings"));
        return new NodeInventory(StringPool.canonical(r.readString("name")), readDevices(r, table), readAnnotations(r),
                readPairScores(r, table));
    }

    static void writeNode(CompactWriter w, NodeState state) {
        w.writeString("name", state.name());
        w.writeBoolean("registered", state.registered());
        StringTable table = writeFacts(w, state.devices(), state.annotations(), state.pairScores());
        writeCharges(w, state.charges(), table);
        w.writeCompact("lock", state.lock());
        w.writeInt64("version", state.version());
        w.writeArrayOfString("strings", table.extra());
    }

    static NodeState readNode(CompactReader r) {
        StringTable.Reader table = StringTable.Reader.pooled(r.readArrayOfString("deviceIds"),
                r.readArrayOfString("strings"));
        return new NodeState(StringPool.canonical(r.readString("name")), r.readBoolean("registered"), readDevices(r, table),
                readAnnotations(r), readPairScores(r, table), readCharges(r, table), r.readCompact("lock"),
                r.readInt64("version"));
    }

    // ---------------------------------------------------------------- devices, annotations, pair scores

    static StringTable writeFacts(CompactWriter w, List<GpuDevice> devices, Map<String, String> annotations,
                                          Map<String, Map<String, Integer>> pairScores) {
        int n = devices.size();
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = devices.get(i).id();
        }
        StringTable table = new StringTable(ids);
        int[] index = new int[n];
        int[] count = new int[n];
        int[] mem = new int[n];
        int[] core = new int[n];
        int[] numa = new int[n];
        int[] typeRefs = new int[n];
        int[] modeRefs = new int[n];
        boolean[] health = new boolean[n];
        int[] migCounts = new int[n];
        Ints migNames = new Ints();
        Ints migMemory = new Ints();
        Ints migCore = new Ints();
        Ints migSlices = new Ints();
        Ints placementCounts = new Ints();
        Ints placementStarts = new Ints();
        Ints placementSizes = new Ints();
        for (int i = 0; i < n; i++) {
            GpuDevice d = devices.get(i);
            index[i] = d.index();
            count[i] = d.count();
            mem[i] = d.devmem();
            core[i] = d.devcore();
            numa[i] = d.numa();
            typeRefs[i] = table.ref(d.type());
            modeRefs[i] = table.ref(d.mode());
            health[i] = d.health();
            migCounts[i] = d.migProfiles().size();
            for (MigProfile p : d.migProfiles()) {
                migNames.add(table.ref(p.name()));
                migMemory.add(p.memoryMB());
                migCore.add(p.core());
                migSlices.add(p.sliceCount());
                placementCounts.add(p.placements().size());
                for (MigPlacement placement : p.placements()) {
                    placementStarts.add(placement.start());
                    placementSizes.add(placement.size());
                }
            }
        }
        w.writeArrayOfString("deviceIds", ids);
        w.writeArrayOfInt32("deviceIndex", index);
        w.writeArrayOfInt32("deviceCount", count);
        w.writeArrayOfInt32("deviceMem", mem);
        w.writeArrayOfInt32("deviceCore", core);
        w.writeArrayOfInt32("deviceNuma", numa);
        w.writeArrayOfInt32("deviceTypeRefs", typeRefs);
        w.writeArrayOfInt32("deviceModeRefs", modeRefs);
        w.writeArrayOfBoolean("deviceHealth", health);
        w.writeArrayOfInt32("deviceMigCounts", migCounts);
        w.writeArrayOfInt32("migNameRefs", migNames.toArray());
        w.writeArrayOfInt32("migMemory", migMemory.toArray());
        w.writeArrayOfInt32("migCore", migCore.toArray());
        w.writeArrayOfInt32("migSlices", migSlices.toArray());
        w.writeArrayOfInt32("migPlacementCounts", placementCounts.toArray());
        w.writeArrayOfInt32("placementStarts", placementStarts.toArray());
        w.writeArrayOfInt32("placementSizes", placementSizes.toArray());

        w.writeArrayOfString("annotationKeys", annotations.keySet().toArray(new String[0]));
        w.writeArrayOfString("annotationValues", annotations.values().toArray(new String[0]));

        Ints from = new Ints();
        Ints to = new Ints();
        Ints score = new Ints();
        pairScores.forEach((a, row) -> row.forEach((b, s) -> {
            from.add(table.ref(a));
            to.add(table.ref(b));
            score.add(s);
        }));
        w.writeArrayOfInt32("pairFromRefs", from.toArray());
        w.writeArrayOfInt32("pairToRefs", to.toArray());
        w.writeArrayOfInt32("pairScores", score.toArray());
        return table;
    }

    static List<GpuDevice> readDevices(CompactReader r, StringTable.Reader table) {
        String[] ids = table.seed();
        int[] index = r.readArrayOfInt32("deviceIndex");
        int[] count = r.readArrayOfInt32("deviceCount");
        int[] mem = r.readArrayOfInt32("deviceMem");
        int[] core = r.readArrayOfInt32("deviceCore");
        int[] numa = r.readArrayOfInt32("deviceNuma");
        int[] typeRefs = r.readArrayOfInt32("deviceTypeRefs");
        int[] modeRefs = r.readArrayOfInt32("deviceModeRefs");
        boolean[] health = r.readArrayOfBoolean("deviceHealth");
        int[] migCounts = r.readArrayOfInt32("deviceMigCounts");
        int[] migNames = r.readArrayOfInt32("migNameRefs");
        int[] migMemory = r.readArrayOfInt32("migMemory");
        int[] migCore = r.readArrayOfInt32("migCore");
        int[] migSlices = r.readArrayOfInt32("migSlices");
        int[] placementCounts = r.readArrayOfInt32("migPlacementCounts");
        int[] placementStarts = r.readArrayOfInt32("placementStarts");
        int[] placementSizes = r.readArrayOfInt32("placementSizes");
        List<GpuDevice> devices = new ArrayList<>(ids.length);
        int profile = 0;
        int placement = 0;
        for (int i = 0; i < ids.length; i++) {
            List<MigProfile> profiles = new ArrayList<>(migCounts[i]);
            for (int p = 0; p < migCounts[i]; p++, profile++) {
                List<MigPlacement> placements = new ArrayList<>(placementCounts[profile]);
                for (int k = 0; k < placementCounts[profile]; k++, placement++) {
                    placements.add(new MigPlacement(placementStarts[placement], placementSizes[placement]));
                }
                profiles.add(new MigProfile(table.get(migNames[profile]), migMemory[profile], migCore[profile],
                        migSlices[profile], placements));
            }
            devices.add(new GpuDevice(ids[i], index[i], count[i], mem[i], core[i], table.get(typeRefs[i]), numa[i],
                    table.get(modeRefs[i]), profiles, health[i]));
        }
        return devices;
    }

    static Map<String, String> readAnnotations(CompactReader r) {
        String[] keys = r.readArrayOfString("annotationKeys");
        String[] values = r.readArrayOfString("annotationValues");
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            out.put(keys[i], values[i]);
        }
        return out;
    }

    static Map<String, Map<String, Integer>> readPairScores(CompactReader r, StringTable.Reader table) {
        int[] from = r.readArrayOfInt32("pairFromRefs");
        int[] to = r.readArrayOfInt32("pairToRefs");
        int[] score = r.readArrayOfInt32("pairScores");
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        for (int i = 0; i < from.length; i++) {
            out.computeIfAbsent(table.get(from[i]), k -> new LinkedHashMap<>()).put(table.get(to[i]), score[i]);
        }
        return out;
    }

    // ---------------------------------------------------------------- charges

    private static void writeCharges(CompactWriter w, Map<String, PodCharge> charges, StringTable table) {
        int n = charges.size();
        String[] uids = new String[n];
        boolean[] bound = new boolean[n];
        long[] deadlines = new long[n];
        int[] namespaceRefs = new int[n];
        String[] names = new String[n];
        int[] initCounts = new int[n];
        int[] containerCounts = new int[n];
        Ints containerSizes = new Ints();
        Ints idx = new Ints();
        Ints uuidRefs = new Ints();
        Ints typeRefs = new Ints();
        Ints mem = new Ints();
        Ints cores = new Ints();
        int i = 0;
        for (Map.Entry<String, PodCharge> e : charges.entrySet()) {
            PodCharge c = e.getValue();
            uids[i] = e.getKey();
            bound[i] = c instanceof PodCharge.Bound;
            deadlines[i] = c instanceof PodCharge.Reserved r ? r.deadlineMillis() : 0;
            namespaceRefs[i] = table.ref(c.podNamespace());
            names[i] = c.podName();
            initCounts[i] = c.allocation().initCount();
            containerCounts[i] = c.allocation().containers().size();
            for (List<ContainerDevice> container : c.allocation().containers()) {
                containerSizes.add(container.size());
                for (ContainerDevice d : container) {
                    idx.add(d.idx());
                    uuidRefs.add(table.ref(d.uuid()));
                    typeRefs.add(table.ref(d.type()));
                    mem.add(d.usedmem());
                    cores.add(d.usedcores());
                }
            }
            i++;
        }
        w.writeArrayOfString("chargeUids", uids);
        w.writeArrayOfBoolean("chargeBound", bound);
        w.writeArrayOfInt64("chargeDeadlines", deadlines);
        w.writeArrayOfInt32("chargeNamespaceRefs", namespaceRefs);
        w.writeArrayOfString("chargeNames", names);
        w.writeArrayOfInt32("chargeInitCounts", initCounts);
        w.writeArrayOfInt32("chargeContainerCounts", containerCounts);
        w.writeArrayOfInt32("containerSizes", containerSizes.toArray());
        w.writeArrayOfInt32("entryIdx", idx.toArray());
        w.writeArrayOfInt32("entryUuidRefs", uuidRefs.toArray());
        w.writeArrayOfInt32("entryTypeRefs", typeRefs.toArray());
        w.writeArrayOfInt32("entryMem", mem.toArray());
        w.writeArrayOfInt32("entryCores", cores.toArray());
    }

    private static Map<String, PodCharge> readCharges(CompactReader r, StringTable.Reader table) {
        String[] uids = r.readArrayOfString("chargeUids");
        boolean[] bound = r.readArrayOfBoolean("chargeBound");
        long[] deadlines = r.readArrayOfInt64("chargeDeadlines");
        int[] namespaceRefs = r.readArrayOfInt32("chargeNamespaceRefs");
        String[] names = r.readArrayOfString("chargeNames");
        int[] initCounts = r.readArrayOfInt32("chargeInitCounts");
        int[] containerCounts = r.readArrayOfInt32("chargeContainerCounts");
        int[] containerSizes = r.readArrayOfInt32("containerSizes");
        int[] idx = r.readArrayOfInt32("entryIdx");
        int[] uuidRefs = r.readArrayOfInt32("entryUuidRefs");
        int[] typeRefs = r.readArrayOfInt32("entryTypeRefs");
        int[] mem = r.readArrayOfInt32("entryMem");
        int[] cores = r.readArrayOfInt32("entryCores");
        Map<String, PodCharge> charges = new LinkedHashMap<>();
        int container = 0;
        int entry = 0;
        for (int i = 0; i < uids.length; i++) {
            List<List<ContainerDevice>> containers = new ArrayList<>(containerCounts[i]);
            for (int c = 0; c < containerCounts[i]; c++, container++) {
                List<ContainerDevice> devices = new ArrayList<>(containerSizes[container]);
                for (int k = 0; k < containerSizes[container]; k++, entry++) {
                    devices.add(new ContainerDevice(idx[entry], table.get(uuidRefs[entry]), table.get(typeRefs[entry]),
                            mem[entry], cores[entry]));
                }
                containers.add(devices);
            }
            PodAllocation allocation = new PodAllocation(containers, initCounts[i]);
            String namespace = table.get(namespaceRefs[i]);
            charges.put(uids[i], bound[i]
                    ? new PodCharge.Bound(allocation, namespace, names[i])
                    : new PodCharge.Reserved(allocation, deadlines[i], namespace, names[i]));
        }
        return charges;
    }

    /** A growable int column. */
    private static final class Ints {
        private int[] values = new int[8];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
