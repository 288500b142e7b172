package io.vgpu.gateway.core.nodelock;

import java.util.Objects;

/**
 * A pod by namespace and name: the owner a node lock names.
 *
 * @param namespace pod namespace
 * @param name      pod name
 */
public record PodRef(String namespace, String name) {

    /** Requires both parts. */
    public PodRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }
}
