package io.vgpu.state.model;

import java.util.List;

/**
 * A MIG profile a GPU in {@code mig} mode can be partitioned into, as registered by the device plugin
 * ({@code migProfiles} in {@code hami.io/node-nvidia-register}). The plugin-side {@code instanceCount}
 * never goes on the wire and is therefore not part of this value.
 *
 * @param name       profile name, e.g. {@code 1g.10gb}
 * @param memoryMB   memory of one instance in MiB
 * @param core       SM share of one instance in percent
 * @param sliceCount memory slices one instance occupies
 * @param placements placements this profile may take on the GPU
 */
public record MigProfile(String name, int memoryMB, int core, int sliceCount, List<MigPlacement> placements) {

    /** Defensive copy; {@code placements} may be null on input and then means none. */
    public MigProfile {
        name = name == null ? "" : name;
        placements = placements == null ? List.of() : List.copyOf(placements);
    }
}
