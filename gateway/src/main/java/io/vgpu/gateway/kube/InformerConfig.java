package io.vgpu.gateway.kube;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the informers select.
 *
 * @param schedulerNames pods with {@code spec.schedulerName} among these are watched (besides every pod
 *                       labelled {@code hami.io/vgpu-node}); one server-side field selection per name
 * @param nodeLabels     nodes must carry all these labels (HAMi's {@code --node-label-selector}); empty = all
 * @param gpuResource    the allocatable resource counted for health ({@code nvidia.com/gpu})
 * @param watchQuotas    whether to watch ResourceQuotas
 */
public record InformerConfig(List<String> schedulerNames, Map<String, String> nodeLabels, String gpuResource,
                             boolean watchQuotas) {

    /** Copies. */
    public InformerConfig {
        schedulerNames = List.copyOf(schedulerNames);
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        Objects.requireNonNull(gpuResource, "gpuResource");
    }

    /** HAMi's defaults: scheduler name {@code hami-scheduler}, all nodes, {@code nvidia.com/gpu}, quotas on. */
    public static InformerConfig defaults() {
        return new InformerConfig(List.of("hami-scheduler"), Map.of(), "nvidia.com/gpu", true);
    }
}
