package io.vgpu.state.store;

import com.hazelcast.map.IMap;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.NodeVersions;
import io.vgpu.state.store.processor.PublishSummaryProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * No version of a node value is reused after a take-over (docs/reliability.md, "A version reused"): copies that a
 * lost owner published, of versions the surviving value never reached, never hide the survivor's later changes from
 * the views.
 */
@Timeout(90)
class VersionJumpTest {

    private static final Duration CONVERGE = Duration.ofSeconds(15);

    @Test
    void aSummaryALostOwnerPublishedNeverHidesTheSurvivorsNextChange() {
        List<HazelcastClusterState> replicas = StoreFixtures.start(clusterOf(3, 1, 0), 3);
        try {
            HazelcastClusterState any = replicas.get(0);
            join(any.registerNode(inventory("n1", gpu("g0", 10, 8000))));
            join(any.reserve("n1", pod("a"), slice("g0", 5000), 0, 60_000));
            HazelcastClusterState owner = ownerOf("n1", replicas);
            NodeState survivor = stored(owner);
            passes(CONVERGE, () -> replicas.forEach(r -> assertThat(usedMem(r)).isEqualTo(5000)));
            // the owner commits one change more (pod b, 2,000 MiB), publishes its summary and dies before the value's
            // backup has it: the summary map and every view hold version v+1 of a value that is then lost
            NodeState lost = survivor.reserve(pod("b"), slice("g0", 2000), 0, 60_000).next()
                    .withVersion(survivor.version() + 1);
            IMap<String, NodeSummary> summaries = owner.member().getMap(HazelcastMemberConfig.SUMMARY_MAP);
            assertThat(join(summaries.submitToKey("n1", new PublishSummaryProcessor(NodeSummary.of(lost))))).isTrue();
            passes(CONVERGE, () -> replicas.forEach(r -> assertThat(usedMem(r)).isEqualTo(7000)));
            List<HazelcastClusterState> survivors = new ArrayList<>(replicas);
            survivors.remove(owner);

            owner.member().getLifecycleService().terminate();
            passes(CONVERGE, () -> survivors.forEach(s -> assertThat(s.member().getCluster().getMembers()).hasSize(2)));
            // the promoted value (without pod b) changes: pod c, 1,000 MiB
            assertThat(join(survivors.get(0).reserve("n1", pod("c"), slice("g0", 1000), 1, 60_000)).isReserved())
                    .isTrue();

            // every view shows the new value (a 5,000 + c 1,000), not the lost one's 7,000
            passes(CONVERGE, () -> survivors.forEach(s -> assertThat(usedMem(s)).as("view of a live replica")
                    .isEqualTo(6000)));
            NodeState stored = stored(survivors.get(0));
            assertThat(stored.charges()).containsOnlyKeys("a", "c");
            assertThat(NodeVersions.epoch(stored.version())).as("a new owner's epoch")
                    .isGreaterThan(NodeVersions.epoch(lost.version()));
            passes(CONVERGE, () -> survivors.forEach(s -> assertThat(s.viewVersion("n1"))
                    .isEqualTo(stored(survivors.get(0)).version())));
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    @Test
    void aKeyCreatedAgainAfterItsPartitionWasLostReachesEveryView() {
        // no backups: the owner's death loses its partitions, the value and its summary with them
        List<HazelcastClusterState> replicas = StoreFixtures.start(clusterOf(3, 0, 0), 3);
        try {
            HazelcastClusterState any = replicas.get(0);
            join(any.registerNode(inventory("n1", gpu("g0", 10, 8000))));
            join(any.reserve("n1", pod("a"), slice("g0", 5000), 0, 60_000));
            passes(CONVERGE, () -> replicas.forEach(r -> assertThat(usedMem(r)).isEqualTo(5000)));
            HazelcastClusterState owner = ownerOf("n1", replicas);
            List<HazelcastClusterState> survivors = new ArrayList<>(replicas);
            survivors.remove(owner);

            owner.member().getLifecycleService().terminate();
            passes(CONVERGE, () -> survivors.forEach(s -> assertThat(s.member().getCluster().getMembers()).hasSize(2)));
            passes(CONVERGE, () -> assertThat(stored(survivors.get(0))).as("lost with its partition").isNull());
            // the views still hold the lost value's summary (no removal event comes for a lost partition); ingest
            // registers the node again, at version 1, with nothing charged
            assertThat(join(survivors.get(0).registerNode(inventory("n1", gpu("g0", 10, 8000))))).isTrue();

            passes(CONVERGE, () -> survivors.forEach(s -> assertThat(usedMem(s)).as("view of a live replica")
                    .isZero()));
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    /** n1's value as the map holds it, read through {@code replica}'s member. */
    private static NodeState stored(HazelcastClusterState replica) {
        return replica.member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get("n1");
    }

    /** The memory in use on n1's card in {@code replica}'s view (-1: the view has no n1). */
    private static int usedMem(HazelcastClusterState replica) {
        return replica.node("n1") == null ? -1 : replica.node("n1").devices().get(0).usedmem();
    }

    private static HazelcastClusterState ownerOf(String node, List<HazelcastClusterState> replicas) {
        return replicas.stream().filter(r -> r.ownsNode(node)).findFirst().orElseThrow();
    }
}
