package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.Candidate;
import io.vgpu.gateway.core.filter.FilterAnnotations;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.ObservedPods;
import io.vgpu.simulate.SyntheticNode;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.PodAllocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods already bound and allocated, as the informers list them after a restart: HAMi's filter annotations (the
 * devices granted), {@code bind-phase=success}, running. The heap probe and the fan-out density rows fill the
 * cluster with them through the informer path, the heap rows too.
 */
final class PlacedPods {

    private PlacedPods() {
    }

    /** Pod {@code i}: 1 GPU ({@code gpu} of {@code node}) with {@code memMiB} of its memory. */
    static ObservedPod placed(int i, String node, GpuDevice gpu, int memMiB) {
        ContainerDevice device = new ContainerDevice(gpu.index(), gpu.id(), "NVIDIA", memMiB, 0);
        Candidate chosen = new Candidate(node, 0, new PodAllocation(List.of(List.of(device)), 0), List.of());
        Map<String, String> annotations = new HashMap<>(FilterAnnotations.annotations(chosen, 1_767_225_600L));
        annotations.put(HamiAnnotations.BIND_PHASE, "success");
        String name = String.format("train-%06d", i);
        PodSpec spec = new PodSpec(name, "team-" + (i % 50), String.format("00000000-0000-4000-8000-%012d", i),
                "hami-scheduler", node, null, annotations, FilterAnnotations.labels(chosen), List.of(),
                List.of(new Container("main", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem",
                        Integer.toString(memMiB)), Map.of(), false, List.of())));
        return new ObservedPod(spec, "Running", false, true, Integer.toString(i));
    }

    /**
     * {@code perNode} small pods (1 GPU, {@code memMiB} each) on every node, spread round robin over its GPUs as
     * registered: the cluster at a pod density.
     */
    static List<ObservedPod> fill(List<SyntheticNode> nodes, int perNode, int memMiB) {
        List<ObservedPod> out = new ArrayList<>(nodes.size() * perNode);
        int i = 0;
        for (SyntheticNode n : nodes) {
            List<GpuDevice> gpus = gpus(n);
            for (int p = 0; p < perNode; p++) {
                out.add(placed(i++, n.name(), gpus.get(p % gpus.size()), memMiB));
            }
        }
        return out;
    }

    /**
     * The heap rows' pods: pod {@code i} on node {@code i mod nodes}, on its GPUs round robin as registered, with
     * 1–4 GiB ({@code 1 + i mod 4}); trimmed and pooled as the informers keep them ({@link ObservedPods#canonical}).
     */
    static List<ObservedPod> spread(List<SyntheticNode> nodes, int pods) {
        List<List<GpuDevice>> gpus = nodes.stream().map(PlacedPods::gpus).toList();
        List<ObservedPod> out = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            List<GpuDevice> on = gpus.get(i % nodes.size());
            out.add(ObservedPods.canonical(placed(i, nodes.get(i % nodes.size()).name(),
                    on.get((i / nodes.size()) % on.size()), 1024 * (1 + i % 4))));
        }
        return out;
    }

    private static List<GpuDevice> gpus(SyntheticNode n) {
        Decoded<List<GpuDevice>> gpus = NodeRegisterCodec.decode(n.annotations().get(
                HamiAnnotations.NODE_NVIDIA_REGISTER));
        if (!gpus.isOk() || gpus.value().isEmpty()) {
            throw new IllegalStateException("node " + n.name() + " registers no GPU");
        }
        return gpus.value();
    }
}
