package io.vgpu.gateway.core.port;

import io.vgpu.gateway.core.nodelock.PodRef;

import java.util.Objects;

/**
 * A pod as the ports address it: namespace and name locate it, the UID pins the incarnation (a pod deleted
 * and re-created under the same name has a new UID).
 *
 * @param namespace metadata.namespace
 * @param name      metadata.name
 * @param uid       metadata.uid; "" when unknown (then no write is guarded by it)
 */
public record PodKey(String namespace, String name, String uid) {

    /** Requires namespace and name; a null UID becomes "". */
    public PodKey {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
    }

    /** The namespace/name pair a node lock names. */
    public PodRef ref() {
        return new PodRef(namespace, name);
    }

    /** {@code <namespace>/<name>}, for logs and messages. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
