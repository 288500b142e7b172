package io.vgpu.deviceplugin.dra.prepare;

import java.util.List;

/** The names of the three consumable capacities every device of this driver publishes (DESIGN.md §8). */
final class Capacities {

    /** Bytes of GPU memory. */
    public static final String MEMORY = "memory";
    /** Percent of the GPU's SMs; 0 = no SM limit. */
    public static final String CORES = "cores";
    /** Share slots: an ordinary share takes ⌊1000/N⌋, an exclusive one 1000. */
    public static final String SLOTS = "slots";
    /** All three, in the order messages list them. */
    public static final List<String> ALL = List.of(MEMORY, CORES, SLOTS);

    private Capacities() {
    }
}
