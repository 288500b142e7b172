package io.vgpu.state.store;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.EntryEventType;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.PodCharge;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

/** A replica's view joins each node's summary with its facts, and only with the facts the summary was made on. */
class NodeViewsTest {

    private final NodeViews views = new NodeViews();

    /** A node registered with one GPU of {@code mem} MiB, at {@code version}, with {@code used} MiB charged. */
    private static NodeState node(int mem, long version, int used) {
        return new NodeState("n1", true, List.of(gpu("g0", 10, mem)), Map.of(), Map.of(),
                Map.of("a", new PodCharge.Bound(slice("g0", used), "ns", "pa")), null, version);
    }

    @Test
    void aSummaryAndItsFactsJoinInWhicheverOrderTheyArrive() {
        NodeState v1 = node(8000, 1, 1000);
        views.summaries().entryAdded(event(NodeSummary.of(v1)));

        assertThat(views.get("n1")).as("usage without facts yet").isNull();

        views.facts().entryAdded(event(NodeFacts.of(v1)));

        assertThat(views.get("n1")).isEqualTo(v1.view());
        assertThat(views.all()).containsExactly(v1.view());
    }

    @Test
    void aNodeIsNeverScoredOnFactsItsSummaryWasNotMadeOn() {
        NodeState v1 = node(8000, 1, 1000);
        views.facts().entryAdded(event(NodeFacts.of(v1)));
        views.summaries().entryAdded(event(NodeSummary.of(v1)));
        // re-registered with twice the memory: the new summary arrives before the new facts
        NodeState v2 = node(16000, 2, 1000);
        NodeState v3 = node(16000, 3, 9000);
        views.summaries().entryUpdated(event(NodeSummary.of(v3)));

        assertThat(views.get("n1")).as("new usage, old facts").isNull();
        assertThat(views.all()).isEmpty();

        views.facts().entryUpdated(event(NodeFacts.of(v2)));

        assertThat(views.get("n1")).as("joined once the facts arrived").isEqualTo(v3.view());
        assertThat(views.get("n1").devices().get(0).totalmem()).isEqualTo(16000);
    }

    @Test
    void newFactsBeforeTheirSummaryHideTheNodeUntilItComes() {
        NodeState v1 = node(8000, 1, 1000);
        views.facts().entryAdded(event(NodeFacts.of(v1)));
        views.summaries().entryAdded(event(NodeSummary.of(v1)));
        NodeState v2 = node(16000, 2, 1000);

        views.facts().entryUpdated(event(NodeFacts.of(v2)));

        assertThat(views.get("n1")).as("old usage, new facts").isNull();

        views.summaries().entryUpdated(event(NodeSummary.of(v2)));

        assertThat(views.get("n1")).isEqualTo(v2.view());
    }

    @Test
    void removingEitherHalfRemovesTheNodeAndALoadJoinsBoth() {
        NodeState v1 = node(8000, 1, 1000);
        views.load(Map.of("n1", NodeSummary.of(v1)), Map.of("n1", NodeFacts.of(v1)));

        assertThat(views.get("n1")).isEqualTo(v1.view());

        views.facts().entryRemoved(new EntryEvent<>("test", null, EntryEventType.REMOVED.getType(), "n1", null));

        assertThat(views.get("n1")).isNull();
    }

    private static <V> EntryEvent<String, V> event(V value) {
        String key = value instanceof NodeSummary s ? s.name() : ((NodeFacts) value).name();
        return new EntryEvent<>("test", null, EntryEventType.UPDATED.getType(), key, value);
    }
}
