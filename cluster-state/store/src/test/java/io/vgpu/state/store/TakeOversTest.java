package io.vgpu.state.store;

import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.store.processor.RegisterNodeProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both paths of a take-over on one member, with what the view holds given: a key present jumps at once; a key absent
 * (lost with its partition) jumps past its floor when it is created again. Keys are fresh per test.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TakeOversTest {

    /** What the view holds of a lost value: 3.648. */
    private static final long VIEWED = (3L << 32) + 648;

    private HazelcastClusterState replica;
    private IMap<String, NodeState> nodes;
    private IMap<String, NodeSummary> summaries;

    @BeforeAll
    void startMember() {
        replica = StoreFixtures.start(clusterOf(1, 0, 0), 1).get(0);
        nodes = replica.member().getMap(HazelcastMemberConfig.NODE_MAP);
        summaries = replica.member().getMap(HazelcastMemberConfig.SUMMARY_MAP);
    }

    @AfterAll
    void stopMember() {
        StoreFixtures.terminate(List.of(replica));
    }

    @Test
    void aKeyPresentJumpsPastWhatTheViewHolds() {
        String node = "present-" + UUID.randomUUID();
        TakeOvers takeOvers = new TakeOvers(nodes, summaries, keys -> Map.of(node, VIEWED), key -> true);
        join(nodes.submitToKey(node, new RegisterNodeProcessor(inventory(node, gpu("g0", 10, 8000)))));

        List<NodeState> after = takeOvers.takeOver(node::equals);

        assertThat(after).singleElement().satisfies(v -> assertThat(v.version()).isEqualTo(4L << 32));
        assertThat(nodes.get(node).version()).isEqualTo(4L << 32);
        assertThat(takeOvers.takeOver(node::equals)).as("a second take-over jumps again")
                .singleElement().satisfies(v -> assertThat(v.version()).isEqualTo(5L << 32));
    }

    @Test
    void aKeyAbsentWhenTakenOverJumpsPastItsFloorWhenCreatedAgain() {
        String node = "lost-" + UUID.randomUUID();
        TakeOvers takeOvers = new TakeOvers(nodes, summaries, keys -> Map.of(node, VIEWED), key -> true);
        var listener = nodes.addLocalEntryListener(takeOvers, Predicates.alwaysTrue(), true);
        try {
            assertThat(takeOvers.takeOver(node::equals)).as("nothing to jump yet").isEmpty();

            // ingest creates the key again, at version 1
            join(nodes.submitToKey(node, new RegisterNodeProcessor(inventory(node, gpu("g0", 10, 8000)))));

            passes(Duration.ofSeconds(10), () -> assertThat(nodes.get(node).version()).isEqualTo(4L << 32));
            passes(Duration.ofSeconds(10), () -> assertThat(replica.viewVersion(node)).isEqualTo(4L << 32));
        } finally {
            nodes.removeEntryListener(listener);
        }
    }
}
