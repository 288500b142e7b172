package io.vgpu.state.dra;

import java.util.Objects;
import java.util.Optional;

/**
 * A ResourceSlice object as this driver reads and writes it: the metadata it manages and the content.
 *
 * @param name            {@code metadata.name}
 * @param resourceVersion {@code metadata.resourceVersion} as read ("" for an object not yet stored)
 * @param owner           the controlling owner reference to the Node (garbage collection when the
 *                        Node goes), when set
 * @param content         {@code spec}
 */
public record SliceObject(String name, String resourceVersion, Optional<NodeOwner> owner, SliceContent content) {

    /** Requires name and content; nulls mean absent. */
    public SliceObject {
        Objects.requireNonNull(name, "name");
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        owner = owner == null ? Optional.empty() : owner;
        Objects.requireNonNull(content, "content");
    }

    /**
     * {@code ownerReferences[]} entry {@code {apiVersion: v1, kind: Node, name, uid, controller: true}}.
     *
     * @param name the node
     * @param uid  its UID (a reference with a stale UID is garbage collected at once)
     */
    public record NodeOwner(String name, String uid) {
    }
}
