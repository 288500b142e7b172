package io.vgpu.simulate;

import java.util.List;

/**
 * Shape of a synthetic cluster.
 *
 * @param nodes       number of GPU nodes
 * @param gpusPerNode GPUs on each node
 * @param models      GPU models; node i gets {@code models[i % size]} (one model per node, as in practice)
 * @param splitCount  the device plugin's deviceSplitCount (allocations per GPU)
 * @param nvlinkEvery every n-th node publishes NVLink pair scores ({@code hami.io/node-nvidia-score}); 0 = none
 */
public record ClusterSpec(int nodes, int gpusPerNode, List<GpuModel> models, int splitCount, int nvlinkEvery) {

    /** Validates the shape. */
    public ClusterSpec {
        if (nodes < 1 || gpusPerNode < 1 || splitCount < 1) {
            throw new IllegalArgumentException("nodes, gpus per node and split count must be >= 1");
        }
        if (models == null || models.isEmpty()) {
            throw new IllegalArgumentException("at least one GPU model is required");
        }
        models = List.copyOf(models);
    }
}
