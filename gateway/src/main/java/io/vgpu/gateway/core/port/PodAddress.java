package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.nodelock.NamespacedName;

import java.util.Objects;

/**
 * A pod as the ports address it in the API server: namespace and name locate it, the UID (optional) pins
 * the incarnation, so a write guarded by it fails on a pod deleted and re-created under the same name.
 * Use it for every {@link PodWriter} and {@link EventSink} call. The node lock names a pod without UID
 * ({@link NamespacedName}, from {@link #namespacedName()}); the shared state keys a pod's charges by its UID
 * ({@link io.vgpu.state.model.PodRef}).
 *
 * @param namespace metadata.namespace
 * @param name      metadata.name
 * @param uid       metadata.uid; "" when unknown (then no write is guarded by it)
 */
public record PodAddress(String namespace, String name, String uid) {

    /** Requires namespace and name; a null UID becomes "". */
    public PodAddress {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
    }

    /** The namespace/name pair a node lock names (the UID dropped). */
    public NamespacedName namespacedName() {
        return new NamespacedName(namespace, name);
    }

    /** {@code <namespace>/<name>}, for logs and messages. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
