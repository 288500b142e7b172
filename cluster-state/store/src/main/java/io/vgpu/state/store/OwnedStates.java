package io.vgpu.state.store;

import io.vgpu.state.model.NodeState;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The full {@link NodeState} values (pod charges, lock) of the node keys this member owns, and only those (DESIGN.md
 * §3 "What fans out is O(GPUs), never O(pods)"): fed by the node map's LOCAL entry listener, so no other member's
 * change events reach this member; a key taken over (migration, backup promotion) is read once from the map here, on
 * this member's own partition ({@link #offer}). Copies are ordered by {@link NodeState#version()}: a late copy never
 * replaces a newer one. Keys this member no longer owns are hidden at once and dropped by {@link #retainOwned}.
 */
final class OwnedStates {

    private final LocalSnapshot<NodeState, Void> values = new LocalSnapshot<>(s -> null,
            (next, current) -> next.version() > current.version());
    private final Predicate<String> ownsKey;

    /** @param ownsKey whether this member owns a key right now */
    OwnedStates(Predicate<String> ownsKey) {
        this.ownsKey = ownsKey;
    }

    /** The listener to register with {@code addLocalEntryListener} (through the replica's view feed). */
    LocalSnapshot<NodeState, Void> listener() {
        return values;
    }

    /** The value of an owned key, or null when the key is absent or another member owns it. No network. */
    NodeState get(String name) {
        return ownsKey.test(name) ? values.get(name) : null;
    }

    /** Every value of a key owned now. No network. */
    Collection<NodeState> all() {
        List<NodeState> out = new ArrayList<>();
        for (NodeState s : values.values()) {
            if (ownsKey.test(s.name())) {
                out.add(s);
            }
        }
        return out;
    }

    /** A value read from the map for a key taken over: kept unless an event brought a newer version meanwhile. */
    void offer(NodeState value) {
        values.offer(value.name(), value);
    }

    /** Starts a full reload ({@link #load}), e.g. after a merge. */
    void beginLoad() {
        values.beginLoad();
    }

    /** The owned entries read after the listener was registered (or after {@link #beginLoad}). */
    void load(Map<String, NodeState> owned) {
        values.load(owned);
    }

    /** Forgets the keys another member owns now (after migrations). */
    void retainOwned() {
        values.retain(ownsKey);
    }
}
