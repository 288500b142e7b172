package io.vgpu.gateway.core.port;

import java.util.Map;
import java.util.Objects;

/**
 * What the ResourceQuota informer tells the gateway about one quota (spec §8.4): its
 * {@code spec.hard["limits.<resource>"]} entries whose quantity is an integer ({@code AsInt64}), keyed by
 * {@code <resource>} (the {@code limits.} prefix removed). Other entries are left out.
 *
 * @param namespace metadata.namespace
 * @param name      metadata.name
 * @param limits    resource name → integer limit, e.g. {@code nvidia.com/gpumem → 4096}
 */
public record QuotaObservation(String namespace, String name, Map<String, Long> limits) {

    /** Copies the map. */
    public QuotaObservation {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        limits = limits == null ? Map.of() : Map.copyOf(limits);
    }
}
