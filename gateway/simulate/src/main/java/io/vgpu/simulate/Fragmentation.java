package io.vgpu.simulate;

import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.NodeView;

import java.util.Collection;

/**
 * Fragmentation of free GPU memory for a reference request of {@code r} MiB (the workload's median):
 * the free memory on devices that cannot fit {@code r} (too little memory left, or no free slot)
 * divided by all free memory. 0 = every free MiB is usable by a typical pod; 1 = none is.
 */
public final class Fragmentation {

    private Fragmentation() {
    }

    /**
     * @param nodes current node views
     * @param r     reference request in MiB (> 0)
     * @return the fraction in [0, 1]; 0 when no memory is free
     */
    public static double of(Collection<NodeView> nodes, long r) {
        long free = 0;
        long stranded = 0;
        for (NodeView n : nodes) {
            for (DeviceUsage d : n.devices()) {
                long f = Math.max(0, (long) d.totalmem() - d.usedmem());
                free += f;
                if (!d.health() || d.used() >= d.count() || f < r) {
                    stranded += f;
                }
            }
        }
        return free == 0 ? 0 : (double) stranded / free;
    }
}
