package io.vgpu.gateway.core.draview;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The DRA side of the cluster at one moment: every card published by driver {@code gpu.vgpu.io}, with its shares,
 * in node then device order, plus the shares of devices no slice publishes (a slice deleted while claims still hold
 * its devices; they are shown, never dropped silently).
 *
 * @param cards    the cards
 * @param orphans  shares of unknown devices
 */
public record DraSnapshot(List<DraCard> cards, List<DraShare> orphans) {

    /** No DRA nodes. */
    public static final DraSnapshot EMPTY = new DraSnapshot(List.of(), List.of());

    /** Copies the lists. */
    public DraSnapshot {
        cards = cards == null ? List.of() : List.copyOf(cards);
        orphans = orphans == null ? List.of() : List.copyOf(orphans);
    }

    /** The distinct card memory sizes, MiB, ascending (what {@code gpumem-percentage} translates against). */
    public SortedSet<Long> cardMemorySizes() {
        SortedSet<Long> sizes = new TreeSet<>();
        cards.forEach(c -> sizes.add(c.memoryMiB()));
        return sizes;
    }
}
