package io.vgpu.simulate;

import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.GpuDevice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The one synthetic-cluster generator (simulate, tests and load tests reuse it): N nodes × G GPUs of
 * the spec's models, each node's devices encoded exactly as the HAMi device plugin encodes them
 * ({@code hami.io/node-nvidia-register}), the first half of a node's GPUs on NUMA node 0 and the rest on
 * NUMA 1, and NVLink pair scores on every {@code nvlinkEvery}-th node (high within a NUMA node, low
 * across). Deterministic for a seed.
 */
public final class ClusterGenerator {

    private static final int NVLINK_SAME_NUMA = 100;
    private static final int NVLINK_CROSS_NUMA = 10;

    private ClusterGenerator() {
    }

    /**
     * @param spec shape of the cluster
     * @param seed random seed for the GPU UUIDs
     * @return nodes {@code gpu-node-0001 …} in order
     */
    public static List<SyntheticNode> generate(ClusterSpec spec, long seed) {
        Random random = new Random(seed);
        List<SyntheticNode> nodes = new ArrayList<>(spec.nodes());
        for (int i = 0; i < spec.nodes(); i++) {
            GpuModel model = spec.models().get(i % spec.models().size());
            List<GpuDevice> devices = new ArrayList<>(spec.gpusPerNode());
            for (int g = 0; g < spec.gpusPerNode(); g++) {
                String uuid = "GPU-" + new UUID(random.nextLong(), random.nextLong());
                devices.add(new GpuDevice(uuid, g, spec.splitCount(), model.memMiB(), 100, model.type(),
                        numaOf(g, spec.gpusPerNode()), "hami-core", List.of(), true));
            }
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, NodeRegisterCodec.encode(devices));
            if (spec.nvlinkEvery() > 0 && i % spec.nvlinkEvery() == 0) {
                annotations.put(HamiAnnotations.NODE_NVIDIA_SCORE, pairScores(devices));
            }
            nodes.add(new SyntheticNode(String.format("gpu-node-%04d", i + 1), annotations));
        }
        return nodes;
    }

    private static int numaOf(int gpu, int gpus) {
        return gpus > 1 && gpu >= gpus / 2 ? 1 : 0;
    }

    /** {@code [{"uuid":"GPU-a","score":{"GPU-b":100,…}},…]} as the plugin writes it with topology scoring on. */
    private static String pairScores(List<GpuDevice> devices) {
        StringBuilder b = new StringBuilder("[");
        for (GpuDevice d : devices) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append("{\"uuid\":\"").append(d.id()).append("\",\"score\":{");
            boolean first = true;
            for (GpuDevice o : devices) {
                if (o == d) {
                    continue;
                }
                b.append(first ? "" : ",").append('"').append(o.id()).append("\":")
                        .append(o.numa() == d.numa() ? NVLINK_SAME_NUMA : NVLINK_CROSS_NUMA);
                first = false;
            }
            b.append("}}");
        }
        return b.append(']').toString();
    }
}
