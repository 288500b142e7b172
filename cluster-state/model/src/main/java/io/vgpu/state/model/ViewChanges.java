package io.vgpu.state.model;

import java.util.function.Consumer;

/**
 * The names of the nodes whose local {@link NodeView} changed, in order, the last {@code capacity} of them: lets a
 * reader that kept results per node since a {@link #mark()} redo only the nodes changed since (a filter at 5,000
 * nodes re-reads a handful instead of every view, {@code FilterDecider}). A bounded ring: a mark older than the ring
 * reaches answers "unknown", and the reader reads every node again.
 *
 * <p>Ordering contract: the writer replaces a node's view first and calls {@link #changed} after; a reader takes its
 * mark before it reads any view. Every change recorded before the mark was taken is then visible to the reader's
 * reads (the lock orders them), and a change in flight at that moment is recorded after the mark, so the reader's next
 * call sees it. Thread-safe; the lock is held for an array write or a short copy (one filter call, one view change).
 */
public final class ViewChanges {

    /** Changes kept by default: a few seconds of view changes at thousands of decisions per second. */
    public static final int DEFAULT_CAPACITY = 8_192;

    private final String[] ring;
    private final int mask;
    /** Sequence number of the next change; guarded by this. */
    private long next;

    /** A log of {@link #DEFAULT_CAPACITY} changes. */
    public ViewChanges() {
        this(DEFAULT_CAPACITY);
    }

    /** @param capacity changes kept, a power of two */
    public ViewChanges(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a positive power of two: " + capacity);
        }
        this.ring = new String[capacity];
        this.mask = capacity - 1;
    }

    /** Records that {@code node}'s view changed (called after the new view is in place). */
    public synchronized void changed(String node) {
        ring[(int) (next & mask)] = node;
        next++;
    }

    /** A mark: the changes recorded after this call are those {@link #changedSince} hands out for it. */
    public synchronized long mark() {
        return next;
    }

    /**
     * Hands every node recorded as changed since {@code mark} to {@code changed} (a node may come more than once),
     * or returns false and hands nothing when the ring no longer reaches back to the mark (or it is not a mark of this
     * log): then any node may have changed.
     */
    public synchronized boolean changedSince(long mark, Consumer<String> changed) {
        if (mark < 0 || mark > next || next - mark > ring.length) {
            return false;
        }
        for (long s = mark; s < next; s++) {
            changed.accept(ring[(int) (s & mask)]);
        }
        return true;
    }
}
