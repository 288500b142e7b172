package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.score.MigAssignment;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.MigAllocationsCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.MigAllocation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod annotations and label a successful {@code /filter} writes (spec §6.2): {@code vgpu-node},
 * {@code vgpu-time}, {@code vgpu-devices-to-allocate} and {@code vgpu-devices-allocated} (identical
 * strings), {@code vgpu-mig-allocations} for MIG picks, and the label {@code hami.io/vgpu-node}.
 */
public final class FilterAnnotations {

    private FilterAnnotations() {
    }

    /**
     * @param chosen     the reserved candidate
     * @param nowSeconds Unix seconds for {@code hami.io/vgpu-time}
     * @return annotations to merge into the pod, in a stable order
     */
    public static Map<String, String> annotations(Candidate chosen, long nowSeconds) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(HamiAnnotations.VGPU_NODE, chosen.node());
        out.put(HamiAnnotations.VGPU_TIME, Long.toString(nowSeconds));
        out.putAll(PodDevicesCodec.filterAnnotations(chosen.allocation().containers()));
        if (!chosen.migAssignments().isEmpty()) {
            out.put(HamiAnnotations.MIG_ALLOCATIONS, migJson(chosen.migAssignments()));
        }
        return out;
    }

    /** The label the vGPU monitor selects pods by. */
    public static Map<String, String> labels(Candidate chosen) {
        return Map.of(HamiAnnotations.VGPU_NODE, chosen.node());
    }

    /** {@code [{"containerIndex":c,"deviceIndex":d,"gpuUUID":"…","profile":"…","placement":{"start":s,"size":n}}]}. */
    static String migJson(List<MigAssignment> assignments) {
        return MigAllocationsCodec.encode(assignments.stream()
                .map(a -> MigAllocation.reserved(a.containerIndex(), a.deviceIndex(), a.gpuUuid(), a.profile(), a.placement()))
                .toList());
    }
}
