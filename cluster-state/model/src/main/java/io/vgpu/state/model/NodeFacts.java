package io.vgpu.state.model;

import java.util.Objects;

/**
 * A node's registration facts as every replica holds them (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"):
 * what its device plugin registered, which changes only on (re-)registration, published apart from the per-decision
 * {@link NodeSummary} so that a decision's events carry usage only. {@link #hash} is the facts' {@link FactsHash};
 * a summary is joined with the facts of its own {@link NodeSummary#factsHash()} and no others.
 *
 * <p>Copies are ordered like summaries: by the {@link NodeState#version() version} of the node value they were
 * published from; a {@link #reset()} copy (republished after a merge) replaces any version.
 *
 * @param name      node name
 * @param version   the version of the node value they were published from
 * @param hash      the facts' fingerprint
 * @param inventory the facts
 * @param reset     whether it replaces facts of any version
 */
public record NodeFacts(String name, long version, long hash, NodeInventory inventory, boolean reset) {

    /** Requires a name and the inventory. */
    public NodeFacts {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inventory, "inventory");
    }

    /** The facts of a stored node value, or null when the node is not registered. */
    public static NodeFacts of(NodeState state) {
        NodeInventory inventory = state.inventory();
        return inventory == null ? null : new NodeFacts(state.name(), state.version(), FactsHash.of(inventory),
                inventory, false);
    }

    /** These facts as ones that replace any version (after a merge). */
    public NodeFacts asReset() {
        return new NodeFacts(name, version, hash, inventory, true);
    }

    /**
     * Whether these facts are to be written over {@code current} (null: none): a reset always; otherwise only
     * different facts of a later version (the same facts again change nothing and fire no event).
     */
    public boolean replaces(NodeFacts current) {
        return reset || current == null || (hash != current.hash && version > current.version);
    }
}
