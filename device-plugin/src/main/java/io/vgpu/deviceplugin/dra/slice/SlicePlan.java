package io.vgpu.deviceplugin.dra.slice;

import io.vgpu.state.dra.SliceContent;
import io.vgpu.state.dra.SliceObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What one publication writes, decided from the content wanted and the slices the API server holds
 * (pure):
 *
 * <pre>
 *  adopt: the slice with this node's slice name, else the readable one of highest generation
 *  adopted, same content, owner set ───────────────► nothing to write
 *  adopted, same content, owner missing ───────────► UPDATE, generation kept
 *  adopted, other content (or unreadable) ─────────► UPDATE at generation + 1
 *  none ───────────────────────────────────────────► CREATE (generation kept when the content is what
 *                                                     was last published: someone deleted it; else + 1)
 *  every other slice of this driver on the node ──► DELETE (one slice per node)
 * </pre>
 *
 * The generation never goes back: it starts above the highest one seen in the pool or published before.
 *
 * @param write     the slice to write, when one must be
 * @param create    true to create it, false to update it
 * @param deletions names of the other slices
 */
record SlicePlan(Optional<SliceObject> write, boolean create, List<String> deletions) {

    static SlicePlan decide(String name, SliceContent wanted, SliceObject.NodeOwner owner, List<SliceStore.Stored> existing,
                            SliceContent lastPublished) {
        long highest = lastPublished == null ? 0 : lastPublished.pool().generation();
        for (SliceStore.Stored s : existing) {
            if (s.object().isOk()) {
                highest = Math.max(highest, s.object().value().content().pool().generation());
            }
        }
        SliceStore.Stored adopted = existing.stream().filter(s -> s.name().equals(name)).findFirst()
                .or(() -> existing.stream().filter(s -> s.object().isOk())
                        .max(Comparator.comparingLong(s -> s.object().value().content().pool().generation())))
                .orElse(null);
        List<String> deletions = new ArrayList<>();
        for (SliceStore.Stored s : existing) {
            if (s != adopted) {
                deletions.add(s.name());
            }
        }
        if (adopted == null) {
            boolean republish = lastPublished != null && lastPublished.sameAs(wanted);
            SliceContent content = wanted.atGeneration(republish ? Math.max(1, highest) : highest + 1);
            return new SlicePlan(Optional.of(new SliceObject(name, "", Optional.of(owner), content)), true, deletions);
        }
        boolean same = adopted.object().isOk() && adopted.object().value().content().sameAs(wanted);
        if (same && adopted.object().value().owner().equals(Optional.of(owner))) {
            return new SlicePlan(Optional.empty(), false, deletions);
        }
        long generation = same ? adopted.object().value().content().pool().generation() : highest + 1;
        return new SlicePlan(Optional.of(new SliceObject(adopted.name(), adopted.resourceVersion(), Optional.of(owner),
                wanted.atGeneration(generation))), false, deletions);
    }
}
