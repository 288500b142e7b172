package io.vgpu.deviceplugin.dra.prepare;

import java.util.Objects;

/**
 * A ResourceClaim as the kubelet names it in NodePrepareResources / NodeUnprepareResources: all
 * three fields are always set (spec/dra-spec.md §4.3). The UID is the key of every answer.
 *
 * @param namespace {@code metadata.namespace}
 * @param name      {@code metadata.name}
 * @param uid       {@code metadata.uid}
 */
public record ClaimRef(String namespace, String name, String uid) {

    /** Requires the three fields (possibly empty: a kubelet bug must not crash the call). */
    public ClaimRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
    }

    /** {@code namespace/name} for messages. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
