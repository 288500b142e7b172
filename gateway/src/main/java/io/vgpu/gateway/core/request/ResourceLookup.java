package io.vgpu.gateway.core.request;

import io.vgpu.gateway.core.Container;

import java.util.Optional;

/**
 * HAMi's way of reading one resource of a container: {@code limits[name]}, else
 * {@code requests[name]}. An empty name is "not configured" and never matches.
 */
public final class ResourceLookup {

    private ResourceLookup() {
    }

    /** Whether the resource appears in limits or requests. */
    public static boolean present(Container container, String resource) {
        return raw(container, resource) != null;
    }

    /** The parsed quantity from limits, else requests; empty when absent in both. */
    public static Optional<Quantity> find(Container container, String resource) {
        String raw = raw(container, resource);
        return raw == null ? Optional.empty() : Optional.of(Quantity.parse(raw));
    }

    /** Whether {@code limits} alone holds the resource. */
    public static boolean inLimits(Container container, String resource) {
        return !resource.isEmpty() && container.limits().containsKey(resource);
    }

    private static String raw(Container container, String resource) {
        if (resource == null || resource.isEmpty()) {
            return null;
        }
        String v = container.limits().get(resource);
        return v != null ? v : container.requests().get(resource);
    }
}
