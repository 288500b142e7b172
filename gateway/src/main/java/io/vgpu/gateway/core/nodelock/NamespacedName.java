package io.vgpu.gateway.core.nodelock;

import java.util.Objects;

/**
 * A pod by namespace and name only, with no UID: the owner a node lock ({@code hami.io/mutex.lock}) names,
 * because HAMi's lock value carries no UID. Use it for the node lock and nothing else; a port call that
 * reads or writes the pod takes a {@link io.vgpu.gateway.core.port.PodAddress} (namespace, name and an
 * optional UID pin), and the shared state keys charges by {@link io.vgpu.state.model.PodRef} (UID first).
 *
 * @param namespace pod namespace
 * @param name      pod name
 */
public record NamespacedName(String namespace, String name) {

    /** Requires both parts. */
    public NamespacedName {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }
}
