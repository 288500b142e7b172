package io.vgpu.simulate.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What one node can allocate from, in search order: its pools ({@link PoolGatherer}) and every device of
 * them as a {@link Candidate} with its capacities parsed. Depends only on the slices and the node, so it is
 * built once per node and slice set.
 */
record NodeView(List<Pool> pools, List<Candidate> candidates) {

    NodeView {
        pools = List.copyOf(pools);
        candidates = List.copyOf(candidates);
    }

    static NodeView of(Collection<ResourceSlice> slices, Node node) {
        List<Pool> pools = PoolGatherer.gather(slices, node);
        List<Candidate> candidates = new ArrayList<>();
        for (Pool pool : pools) {
            for (ResourceSlice slice : pool.slices()) {
                Nulls.list(slice.getSpec().getDevices()).forEach(d -> candidates.add(
                        new Candidate(new DeviceId(pool.driver(), pool.name(), d.getName()), pool, slice, d,
                                ConsumableCapacity.parse(Nulls.map(d.getCapacity())))));
            }
        }
        return new NodeView(pools, candidates);
    }

    boolean sawInvalidPool() {
        return pools.stream().anyMatch(Pool::invalid);
    }
}
