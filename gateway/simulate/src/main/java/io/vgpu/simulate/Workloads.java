package io.vgpu.simulate;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.state.model.NodeView;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The pod stream of a run: {@link WorkloadGenerator} over the GPU types and UUIDs of a synthetic cluster. */
public final class Workloads {

    private Workloads() {
    }

    /**
     * @param cluster the synthetic cluster (its GPU types and UUIDs feed the type and UUID selections)
     * @param nvidia  the resource names the pods use
     * @param mix     request kinds and weights ({@link WorkloadMix#parse})
     * @param pods    how many pods
     * @param seed    random seed: the same seed gives the same pods
     * @return the pods as users would write them, before the webhook
     */
    public static List<PodSpec> generate(List<SyntheticNode> cluster, NvidiaConfig nvidia, String mix, int pods,
                                         long seed) {
        Set<String> types = new LinkedHashSet<>();
        List<String> uuids = new ArrayList<>();
        for (SyntheticNode n : cluster) {
            NodeView v = FilterDecider.idleView(n.name(), n.annotations());
            if (v != null) {
                v.devices().forEach(d -> {
                    types.add(d.type());
                    uuids.add(d.id());
                });
            }
        }
        WorkloadGenerator generator = new WorkloadGenerator(WorkloadMix.parse(mix),
                new WorkloadGenerator.ResourceNames(nvidia.resourceCountName(), nvidia.resourceMemoryName(),
                        nvidia.resourceMemoryPercentageName(), nvidia.resourceCoreName()),
                List.copyOf(types), uuids, seed);
        List<PodSpec> out = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            out.add(generator.next().pod());
        }
        return out;
    }
}
