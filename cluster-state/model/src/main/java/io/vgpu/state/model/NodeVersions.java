package io.vgpu.state.model;

/**
 * The rule of a node value's {@link NodeState#version() version}, by which every copy derived from the value (a
 * replica's {@link NodeSummary}, the {@link NodeFacts}) is ordered: the high 32 bits are an <b>epoch</b>, the low 32
 * bits count the changes within it. Every change adds one ({@code version + 1}); a new owner of the key (a migration
 * in, a backup promoted, a key re-created after its partition was lost, a merge) moves it to the first version of an
 * epoch past every version it knows of ({@link #takeOver}).
 *
 * <p>Why an epoch: the owner's local listener publishes a change's summary as soon as the change commits, before the
 * value's backup is known to have it. An owner that dies then (or the side of a merge that loses) leaves copies of a
 * version that the surviving value never reached; counted on by one, the survivor's next changes would carry the same
 * versions with other usage, and every replica would drop them as "not newer" and show the lost usage until the
 * version passes the lost one (for ever on a node that does not change again). A lost owner can have published only
 * the versions of changes in flight to its backup, all within the epoch the survivor holds (a few, never 2^32), so
 * one epoch more is past all of them, whatever their count. The versions stay one {@code long} compared as numbers:
 * the wire format, the codecs and every {@code >} that orders copies are unchanged, and a value written before
 * epochs existed is simply in epoch 0.
 *
 * <p>Not covered: 2^32 changes of one key within one epoch (the count would carry into the epoch), and two owners of
 * one key lost within one backup round trip, the second before its jump reached anything the third can see (the
 * third jumps past what its own value, its view and the summary map show, not past what only the dead saw). After
 * a merge the epochs of the two sides do not compare either: the owners republish as resets, which replace any
 * version, after their jump.
 */
public final class NodeVersions {

    /** How far the epoch is shifted: the number of changes one epoch can count. */
    public static final int EPOCH_SHIFT = 32;

    private NodeVersions() {
    }

    /** The epoch of {@code version} (0 for versions written before epochs, and for "none", a negative version). */
    public static long epoch(long version) {
        return version < 0 ? 0 : version >>> EPOCH_SHIFT;
    }

    /** The changes counted in {@code version}'s epoch. */
    public static long counter(long version) {
        return version < 0 ? 0 : version & ((1L << EPOCH_SHIFT) - 1);
    }

    /**
     * The version a new owner gives the value it took over: {@code current} when its epoch is already past
     * {@code past}'s (the same take-over again changes nothing: the processor that applies it is idempotent), else the
     * first version of the epoch after {@code past}'s, which is greater than {@code current}, {@code past} and every
     * version of their epochs. Deterministic (a backup that applies it again reaches the same version).
     *
     * @param current the version of the value as the key holds it now
     * @param past    the highest version of the key the new owner knows of: at least the value's version as it read
     *                it, and every copy it saw published (its view's summary, the summary map's)
     */
    public static long takeOver(long current, long past) {
        if (epoch(current) > epoch(past)) {
            return current;
        }
        return (epoch(past) + 1) << EPOCH_SHIFT;
    }

    /** {@code version} as people read it: {@code epoch.counter} (e.g. {@code 3.648}). */
    public static String format(long version) {
        return version < 0 ? Long.toString(version) : epoch(version) + "." + counter(version);
    }
}
