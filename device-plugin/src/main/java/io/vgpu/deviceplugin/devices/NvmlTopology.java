package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.gpu.GpuTopology;
import io.vgpu.deviceplugin.core.register.TopologyScores;
import io.vgpu.hamicore.NvLink;
import io.vgpu.hamicore.Nvml;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the node's GPU topology from NVML (bus ids, active NVLinks and their remote ends, every
 * pair's common ancestor) and scores it ({@link TopologyScores}). BLOCKS (JNI): call on a worker.
 */
public final class NvmlTopology {

    private NvmlTopology() {
    }

    /**
     * @param gpus the served GPUs, in register order
     * @throws io.vgpu.hamicore.NvmlException when NVML cannot answer
     * @throws IllegalArgumentException       when NVML reports a common-ancestor level it does not define
     */
    public static TopologyScores.Result score(Nvml nvml, List<GpuFacts> gpus) {
        List<GpuTopology> topology = new ArrayList<>();
        for (GpuFacts g : gpus) {
            List<GpuTopology.Link> links = new ArrayList<>();
            for (NvLink link : nvml.nvLinks(g.index())) {
                links.add(new GpuTopology.Link(link.remoteBusId(), link.remoteType()));
            }
            topology.add(new GpuTopology(g.uuid(), nvml.pciBusId(g.index()), links));
        }
        List<List<Integer>> ancestors = new ArrayList<>();
        for (GpuFacts a : gpus) {
            List<Integer> row = new ArrayList<>();
            for (GpuFacts b : gpus) {
                row.add(a == b ? 0 : nvml.topologyCommonAncestor(a.index(), b.index()));
            }
            ancestors.add(row);
        }
        return TopologyScores.compute(topology, ancestors);
    }
}
