package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.EntryEventType;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.PodCharge;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The listener-fed copy of a map: loads that race with events, and the reload after a merge. */
class LocalSnapshotTest {

    private final LocalSnapshot<String, String> snapshot = new LocalSnapshot<>(v -> v.isEmpty() ? null : "d:" + v);

    @Test
    void anEventDuringTheFirstLoadWinsOverTheReadValue() {
        snapshot.entryUpdated(event(EntryEventType.UPDATED, "a", "new"));

        snapshot.load(Map.of("a", "old", "b", "b1"));

        assertThat(snapshot.get("a")).isEqualTo("new");
        assertThat(snapshot.get("b")).isEqualTo("b1");
        assertThat(snapshot.derived("b")).isEqualTo("d:b1");
    }

    @Test
    void aReloadReplacesWhatNoEventTouchedAndDropsWhatTheMapNoLongerHas() {
        snapshot.load(Map.of("kept", "k1", "changed", "c1", "gone", "g1", "touched", "t1"));
        snapshot.entryRemoved(event(EntryEventType.REMOVED, "kept", null));
        snapshot.entryAdded(event(EntryEventType.ADDED, "kept", "k1"));

        snapshot.beginLoad();
        snapshot.entryUpdated(event(EntryEventType.UPDATED, "touched", "t3"));
        snapshot.load(Map.of("kept", "k1", "changed", "c2", "touched", "t2", "added", "a1"));

        assertThat(snapshot.values()).containsExactlyInAnyOrder("k1", "c2", "t3", "a1");
        assertThat(snapshot.get("gone")).isNull();
        assertThat(snapshot.derived("gone")).isNull();
        assertThat(snapshot.derived("changed")).isEqualTo("d:c2");
        assertThat(snapshot.derived("touched")).isEqualTo("d:t3");
    }

    @Test
    void afterALoadOnlyEventsCount() {
        snapshot.load(Map.of("a", "a1"));

        snapshot.entryUpdated(event(EntryEventType.UPDATED, "a", "a2"));
        snapshot.entryRemoved(event(EntryEventType.REMOVED, "a", null));

        assertThat(snapshot.get("a")).isNull();
        assertThat(snapshot.derived("a")).isNull();
    }

    @Test
    void aCopyOlderThanTheOneHeldIsDroppedAndAResetOrARemovalAlwaysApplies() {
        NodeFacts facts = NodeFacts.of(state(1, 0));
        LocalSnapshot<NodeSummary, NodeView> views = new LocalSnapshot<>(s -> s.view(facts), NodeSummary::supersedes);

        views.entryUpdated(summaryEvent(summary(2, 3000)));
        views.entryUpdated(summaryEvent(summary(1, 1000)));

        assertThat(views.derived("n1").devices().get(0).usedmem()).as("v1 after v2").isEqualTo(3000);

        views.entryUpdated(summaryEvent(summary(1, 1000).asReset()));

        assertThat(views.derived("n1").devices().get(0).usedmem()).as("v1 as a reset").isEqualTo(1000);

        views.entryUpdated(summaryEvent(summary(4, 4000)));
        views.entryRemoved(new EntryEvent<>("test", null, EntryEventType.REMOVED.getType(), "n1", null));
        views.entryAdded(summaryEvent(summary(1, 500)));

        assertThat(views.derived("n1").devices().get(0).usedmem()).as("v1 of a node created again").isEqualTo(500);
    }

    private static NodeSummary summary(long version, int usedMem) {
        return NodeSummary.of(state(version, usedMem));
    }

    private static NodeState state(long version, int usedMem) {
        return new NodeState("n1", true, List.of(StoreFixtures.gpu("g0", 10, 8000)), Map.of(), Map.of(),
                usedMem == 0 ? Map.of() : Map.of("a", new PodCharge.Bound(StoreFixtures.slice("g0", usedMem), "ns", "pa")),
                null, version);
    }

    private static EntryEvent<String, NodeSummary> summaryEvent(NodeSummary summary) {
        return new EntryEvent<>("test", null, EntryEventType.UPDATED.getType(), summary.name(), summary);
    }

    private static EntryEvent<String, String> event(EntryEventType type, String key, String value) {
        return new EntryEvent<>("test", null, type.getType(), key, value);
    }
}
