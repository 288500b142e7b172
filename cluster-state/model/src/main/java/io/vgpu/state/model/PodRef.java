package io.vgpu.state.model;

import java.util.Objects;

/**
 * The identity of a pod as the shared state records it: the UID keys its charge on a node (a re-created
 * pod with the same name is a different pod); namespace and name are what the node lock
 * ({@code hami.io/mutex.lock}) and the device plugin use to find it. Use it wherever a charge or grant is
 * recorded or looked up. (The gateway addresses API calls with its {@code core.port.PodAddress}, whose UID
 * is optional, and names a node lock's owner with {@code core.nodelock.NamespacedName}, which has none.)
 *
 * @param uid       pod UID (non-null)
 * @param namespace pod namespace ("" when unknown)
 * @param name      pod name ("" when unknown)
 */
public record PodRef(String uid, String namespace, String name) {

    /** Requires a UID; null namespace or name become "". */
    public PodRef {
        Objects.requireNonNull(uid, "uid");
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    /** {@code namespace/name}, for messages. */
    @Override
    public String toString() {
        return namespace + "/" + name + " (" + uid + ")";
    }
}
