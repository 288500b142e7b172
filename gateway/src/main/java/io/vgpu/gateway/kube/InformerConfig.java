package io.vgpu.gateway.kube;

import java.time.Duration;
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
 * @param eventDelay     TEST ONLY ({@code VGPU_DEBUG_INFORMER_DELAY}): every informer event reaches the caches and
 *                       the listener this much later, in order, like a slow watch; zero in production
 */
public record InformerConfig(List<String> schedulerNames, Map<String, String> nodeLabels, String gpuResource,
                             boolean watchQuotas, Duration eventDelay) {

    /** Copies; a null delay is zero. */
    public InformerConfig {
        schedulerNames = List.copyOf(schedulerNames);
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        Objects.requireNonNull(gpuResource, "gpuResource");
        eventDelay = eventDelay == null ? Duration.ZERO : eventDelay;
        if (eventDelay.isNegative()) {
            throw new IllegalArgumentException("event delay must not be negative: " + eventDelay);
        }
    }

    /** Without an event delay. */
    public InformerConfig(List<String> schedulerNames, Map<String, String> nodeLabels, String gpuResource,
                          boolean watchQuotas) {
        this(schedulerNames, nodeLabels, gpuResource, watchQuotas, Duration.ZERO);
    }

    /** HAMi's defaults: scheduler name {@code hami-scheduler}, all nodes, {@code nvidia.com/gpu}, quotas on. */
    public static InformerConfig defaults() {
        return new InformerConfig(List.of("hami-scheduler"), Map.of(), "nvidia.com/gpu", true);
    }
}
