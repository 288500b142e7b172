package io.vgpu.gateway.core.draview;

import io.vgpu.state.dra.DeviceAttribute;
import io.vgpu.state.dra.DeviceCapacity;
import io.vgpu.state.dra.DeviceTaint;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.Quantity;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.dra.SliceContent;
import io.vgpu.state.dra.SliceDevice;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The DRA half of "one view of both modes" (DESIGN.md §8, issue 13 item 3): the ResourceSlices of driver
 * {@code gpu.vgpu.io} and the ResourceClaims allocated from them, folded into per-card usage ({@link DraSnapshot}).
 *
 * <p>Rules (spec/dra-spec.md §1.1, §1.4, §3.4): slices of other drivers are ignored; of one pool only the slices
 * of the highest generation count; a result consumes its {@code consumedCapacity} (memory in bytes, shown in MiB
 * rounded up), and a result without one consumes the whole device (a device that is not shared). A claim is counted
 * while it has an allocation; the informer delivers its deallocation as an update without one.
 *
 * <p>Thread-safe (informer threads write, scrapes read); a snapshot is computed once per change. Pure.
 */
public final class DraLedger {

    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

    private final Map<String, SliceContent> slices = new HashMap<>();
    private final Map<String, DraClaim> claims = new HashMap<>();
    private DraSnapshot snapshot = DraSnapshot.EMPTY;
    private boolean stale;

    /** A slice was added or changed; one of another driver is forgotten (its driver is immutable anyway). */
    public synchronized void putSlice(String sliceName, SliceContent content) {
        if (content == null || !DraNames.DRIVER.equals(content.driver())) {
            removeSlice(sliceName);
            return;
        }
        slices.put(sliceName, content);
        stale = true;
    }

    /** A slice was deleted. */
    public synchronized void removeSlice(String sliceName) {
        stale |= slices.remove(sliceName) != null;
    }

    /** A claim was added or changed: with no results on this driver it is forgotten. */
    public synchronized void putClaim(DraClaim claim) {
        if (claim.results().isEmpty()) {
            removeClaim(claim.namespace(), claim.name());
            return;
        }
        claims.put(claim.key(), claim);
        stale = true;
    }

    /** A claim was deleted. */
    public synchronized void removeClaim(String namespace, String name) {
        stale |= claims.remove(namespace + "/" + name) != null;
    }

    /** The current view. */
    public synchronized DraSnapshot snapshot() {
        if (stale) {
            snapshot = compute();
            stale = false;
        }
        return snapshot;
    }

    private DraSnapshot compute() {
        Map<String, Long> newest = new HashMap<>();
        slices.values().forEach(s -> newest.merge(s.pool().name(), s.pool().generation(), Math::max));
        Map<String, Card> cards = new TreeMap<>();
        List<SliceContent> current = new ArrayList<>(slices.values());
        current.sort(Comparator.comparing(SliceContent::nodeName));
        for (SliceContent s : current) {
            if (s.pool().generation() != newest.get(s.pool().name())) {
                continue;
            }
            for (SliceDevice d : s.devices()) {
                cards.putIfAbsent(s.pool().name() + "\n" + d.name(), new Card(s.nodeName(), d));
            }
        }
        List<DraShare> orphans = new ArrayList<>();
        List<DraClaim> ordered = new ArrayList<>(claims.values());
        ordered.sort(Comparator.comparing(DraClaim::key));
        for (DraClaim claim : ordered) {
            for (DraClaim.Result r : claim.results()) {
                Card card = cards.get(r.pool() + "\n" + r.device());
                if (card == null) {
                    orphans.add(new DraShare(claim.namespace(), claim.name(), claim.pods(), r.pool(), r.device(), "",
                            mib(r.memoryBytes()), r.cores().orElse(0), r.slots().orElse(0)));
                } else {
                    card.add(claim, r);
                }
            }
        }
        List<DraCard> out = new ArrayList<>(cards.size());
        cards.values().forEach(c -> out.add(c.build()));
        out.sort(Comparator.comparing(DraCard::node).thenComparingInt(DraCard::index).thenComparing(DraCard::device));
        return new DraSnapshot(out, orphans);
    }

    private static long mib(OptionalLong bytes) {
        return bytes.isPresent() ? BigDecimal.valueOf(bytes.getAsLong()).divide(MIB, 0, RoundingMode.CEILING)
                .longValue() : 0;
    }

    /** A card being summed up. */
    private static final class Card {
        private final String node;
        private final SliceDevice device;
        private final long memoryMiB;
        private final long cores;
        private final List<DraShare> shares = new ArrayList<>();
        private long usedMemory;
        private long usedCores;
        private long usedSlots;

        Card(String node, SliceDevice device) {
            this.node = node;
            this.device = device;
            this.memoryMiB = capacity(device, SliceBuilder.MEMORY).map(q -> q.number().divide(MIB, 0, RoundingMode.FLOOR)
                    .longValue()).orElse(0L);
            this.cores = capacity(device, SliceBuilder.CORES).map(DraLedger::whole).orElse(0L);
        }

        void add(DraClaim claim, DraClaim.Result r) {
            long mem = r.memoryBytes().isPresent() ? mib(r.memoryBytes()) : memoryMiB;
            long c = r.cores().isPresent() ? r.cores().getAsLong() : cores;
            long s = r.slots().isPresent() ? r.slots().getAsLong() : SliceBuilder.SLOTS_PER_GPU;
            usedMemory += mem;
            usedCores += c;
            usedSlots += s;
            shares.add(new DraShare(claim.namespace(), claim.name(), claim.pods(), node, device.name(), uuid(), mem, c,
                    s));
        }

        DraCard build() {
            boolean healthy = device.taints().stream().noneMatch(t -> DeviceTaint.NO_SCHEDULE.equals(t.effect())
                    || DeviceTaint.NO_EXECUTE.equals(t.effect()));
            return new DraCard(node, device.name(), uuid(), (int) intAttribute("index", 0), text("productName"),
                    (int) intAttribute("numa", -1), healthy, memoryMiB, cores, splitCount(), shares, usedMemory,
                    usedCores, usedSlots);
        }

        private String uuid() {
            return text("uuid");
        }

        private String text(String name) {
            return device.attributes().get(name) instanceof DeviceAttribute.StringValue s ? s.value() : "";
        }

        private long intAttribute(String name, long absent) {
            return device.attributes().get(name) instanceof DeviceAttribute.IntValue i ? i.value() : absent;
        }

        /** 1000 slots over the default request: the node's split count (1 when unknown). */
        private int splitCount() {
            DeviceCapacity slots = device.capacity().get(SliceBuilder.SLOTS);
            if (slots == null) {
                return 1;
            }
            long share = slots.requestPolicy().flatMap(DeviceCapacity.RequestPolicy::defaultValue)
                    .map(DraLedger::whole).orElse(SliceBuilder.SLOTS_PER_GPU);
            return share <= 0 ? 1 : (int) Math.max(1, whole(slots.value()) / share);
        }
    }

    private static Optional<Quantity> capacity(SliceDevice device, String name) {
        DeviceCapacity c = device.capacity().get(name);
        return c == null ? Optional.empty() : Optional.of(c.value());
    }

    private static long whole(Quantity q) {
        return q.number().setScale(0, RoundingMode.FLOOR).longValue();
    }
}
