package io.vgpu.state.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every replica receives on each change of one node (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"):
 * per registered GPU the slots, memory and cores in use, the lock holder, and the {@link FactsHash} of the
 * registration facts it was computed against, at the {@link NodeState#version() version} of the value it was made
 * from. Its size is set by the node's GPUs, not by its pods (the charges stay with the key's owner and backup), and
 * it carries no registration facts: those travel as {@link NodeFacts}, only when they change. A replica scores the
 * {@link #view join} of the two, and only when they name the same facts.
 *
 * <p>Copies are ordered by version: a summary replaces another only when it {@link #supersedes} it, so an
 * out-of-order or repeated copy changes nothing. A {@link #reset()} summary, republished from the value a merge
 * kept, replaces any version (versions of the two sides of a split brain are not comparable).
 *
 * @param name      node name
 * @param version   the version of the node value it was made from
 * @param factsHash the {@link FactsHash} of the facts {@code usage} belongs to (0 when not registered)
 * @param usage     per registered GPU (registration order) what is in use, or null when the node is not registered
 * @param lock      the node-lock holder, or null when unlocked
 * @param reset     whether it replaces a summary of any version
 */
public record NodeSummary(String name, long version, long factsHash, List<GpuUse> usage, NodeLockHolder lock,
                          boolean reset) {

    /** Requires a name; copies the usage. */
    public NodeSummary {
        Objects.requireNonNull(name, "name");
        usage = usage == null ? null : List.copyOf(usage);
    }

    /** The summary of a stored node value. */
    public static NodeSummary of(NodeState state) {
        if (!state.registered()) {
            return new NodeSummary(state.name(), state.version(), 0, null, state.lock(), false);
        }
        List<GpuUse> usage = new ArrayList<>(state.devices().size());
        for (DeviceUsage u : state.view().devices()) {
            usage.add(GpuUse.of(u));
        }
        return new NodeSummary(state.name(), state.version(), FactsHash.of(state.inventory()), usage, state.lock(),
                false);
    }

    /** Whether the node was registered in the value it was made from. */
    public boolean registered() {
        return usage != null;
    }

    /** This summary as one that replaces any version (after a merge). */
    public NodeSummary asReset() {
        return new NodeSummary(name, version, factsHash, usage, lock, true);
    }

    /** Whether this summary replaces {@code current} (null: there is none). */
    public boolean supersedes(NodeSummary current) {
        return reset || current == null || version > current.version();
    }

    /**
     * The node as scored: each registered card's idle usage plus its use here (how {@link NodeState#view()} adds the
     * charges up), with the annotations and pair scores of {@code facts}; null when the node is not registered, or
     * when {@code facts} are absent or are not the facts this summary was computed against (a replica never scores a
     * node on mismatched facts: it waits for the other half to arrive).
     */
    public NodeView view(NodeFacts facts) {
        if (usage == null || facts == null || facts.hash() != factsHash
                || facts.inventory().devices().size() != usage.size()) {
            return null;
        }
        List<GpuDevice> devices = facts.inventory().devices();
        List<DeviceUsage> joined = new ArrayList<>(devices.size());
        for (int i = 0; i < devices.size(); i++) {
            GpuUse u = usage.get(i);
            joined.add(DeviceUsage.idle(devices.get(i)).plus(u.used(), u.usedMem(), u.usedCores()));
        }
        return new NodeView(name, joined, facts.inventory().annotations(), facts.inventory().pairScores());
    }
}
