package io.vgpu.hamicore;

/**
 * Where a MIG GPU instance sits on its GPU ({@code nvmlGpuInstancePlacement_t}): {@code size} memory
 * slices starting at slice {@code start}. Two placements on one GPU conflict when their slice ranges
 * overlap.
 *
 * @param start first slice (0-based)
 * @param size  number of slices
 */
public record InstancePlacement(int start, int size) {

    /** Requires a non-negative start and size. */
    public InstancePlacement {
        if (start < 0 || size < 0) {
            throw new IllegalArgumentException("placement start and size must not be negative: " + start + "/" + size);
        }
    }

    /** True when this placement shares at least one slice with {@code other}. */
    public boolean overlaps(InstancePlacement other) {
        return start < other.start + other.size && other.start < start + size;
    }
}
