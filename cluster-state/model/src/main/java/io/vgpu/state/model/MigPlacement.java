package io.vgpu.state.model;

/**
 * One placement of a MIG profile on a physical GPU: a run of {@code size} memory slices starting at
 * slice {@code start}. Two placements on the same GPU conflict when their slice ranges overlap.
 *
 * @param start first slice index (0-based)
 * @param size  number of slices
 */
public record MigPlacement(int start, int size) {

    /** Returns true when this placement shares at least one slice with {@code other}. */
    public boolean overlaps(MigPlacement other) {
        return start < other.start + other.size && other.start < start + size;
    }
}
