package io.vgpu.state.model;

import java.util.Objects;

/**
 * What every replica holds of one node (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"): the node as scoring
 * reads it (per GPU the used slots, memory and cores, health and the registration facts Fit consults) and its lock
 * holder, at the {@link NodeState#version() version} of the value it was made from. Its size is set by the node's
 * GPUs, not by its pods: the per-pod charges stay with the key's owner and backup.
 *
 * <p>Copies are ordered by version: a summary replaces another only when it {@link #supersedes} it, so an
 * out-of-order or repeated copy changes nothing. A {@link #reset()} summary, republished from the value a merge
 * kept, replaces any version (versions of the two sides of a split brain are not comparable).
 *
 * @param name    node name
 * @param version the version of the node value it was made from
 * @param view    the node as scored ({@link NodeState#view()}), or null when the node is not registered
 * @param lock    the node-lock holder, or null when unlocked
 * @param reset   whether it replaces a summary of any version
 */
public record NodeSummary(String name, long version, NodeView view, NodeLockHolder lock, boolean reset) {

    /** Requires a name. */
    public NodeSummary {
        Objects.requireNonNull(name, "name");
    }

    /** The summary of a stored node value. */
    public static NodeSummary of(NodeState state) {
        return new NodeSummary(state.name(), state.version(), state.registered() ? state.view() : null, state.lock(),
                false);
    }

    /** This summary as one that replaces any version (after a merge). */
    public NodeSummary asReset() {
        return new NodeSummary(name, version, view, lock, true);
    }

    /** Whether this summary replaces {@code current} (null: there is none). */
    public boolean supersedes(NodeSummary current) {
        return reset || current == null || version > current.version();
    }
}
