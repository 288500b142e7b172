package io.vgpu.state.store;

import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import io.vgpu.state.model.ClusterStateUnavailableException;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeVersions;
import io.vgpu.state.model.ReserveOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.failure;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Losing and leaving members: backups are promoted (and the new owner is told to re-ingest), graceful leavers hand
 * over, a minority refuses to serve.
 */
@Timeout(90)
class FailoverTest {

    private static final Duration CONVERGE = Duration.ofSeconds(15);

    @Test
    void aBackupIsPromotedWhenTheOwnerIsTerminated() {
        List<HazelcastClusterState> replicas = StoreFixtures.start(clusterOf(3, 1, 0), 3);
        try {
            HazelcastClusterState any = replicas.get(0);
            join(any.registerNode(inventory("n1", gpu("g0", 10, 8000))));
            join(any.reserve("n1", pod("a"), slice("g0", 5000), 0, 1000));
            join(any.lockNode("n1", "ns", "pod-a", 0, 60_000));
            HazelcastClusterState owner = ownerOf("n1", replicas);
            List<HazelcastClusterState> survivors = new ArrayList<>(replicas);
            survivors.remove(owner);
            Map<HazelcastClusterState, List<Predicate<String>>> resyncs = new ConcurrentHashMap<>();
            survivors.forEach(s -> {
                resyncs.put(s, new CopyOnWriteArrayList<>());
                s.onResync(resyncs.get(s)::add);
            });

            owner.member().getLifecycleService().terminate();

            HazelcastClusterState survivor = survivors.get(0);
            passes(CONVERGE, () -> assertThat(survivor.member().getCluster().getMembers()).hasSize(2));
            // before any further change but its take-over (the jump to a new epoch, NodeVersions): the promoted owner
            // holds the full value it took over, nobody else holds it
            passes(CONVERGE, () -> assertThat(NodeVersions.epoch(survivor.member()
                    .<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get("n1").version())).isOne());
            NodeState promoted = survivor.member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get("n1");
            passes(CONVERGE, () -> StoreFixtures.ownerOnlyHolds(survivors, "n1", promoted));
            // the authoritative value survived: its charge still blocks capacity, its lock still holds
            assertThat(join(survivor.reserve("n1", pod("b"), slice("g0", 5000), 1, 1000)))
                    .isEqualTo(new ReserveOutcome.Refused());
            assertThat(join(survivors.get(1).confirm("n1", pod("a"), null, 2)))
                    .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RESERVATION));
            NodeState stored = survivor.member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get("n1");
            assertThat(stored.charges()).containsOnlyKeys("a");
            assertThat(stored.lock().name()).isEqualTo("pod-a");
            // the promoted owner holds the full value (read from its partition on take-over), nobody else does
            passes(CONVERGE, () -> StoreFixtures.ownerOnlyHolds(survivors, "n1", stored));
            // the new owner is told to re-ingest n1: events for it may have been dropped during the hand-over
            HazelcastClusterState newOwner = ownerOf("n1", survivors);
            passes(CONVERGE, () -> assertThat(resyncs.get(newOwner)).anyMatch(keys -> keys.test("n1")));
            survivors.stream().filter(s -> s != newOwner).forEach(s ->
                    assertThat(resyncs.get(s)).noneMatch(keys -> keys.test("n1")));
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    @Test
    void aChangeWhoseOwnerDiedBeforePublishingItReachesEveryViewThroughTheNewOwner() {
        StoreConfig config = clusterOf(3, 1, 0);
        List<HeldPublications> publications = new ArrayList<>();
        List<HazelcastClusterState> replicas = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            publications.add(new HeldPublications());
            replicas.add(StoreFixtures.startOne(config, publications.get(i)));
        }
        try {
            StoreFixtures.awaitFormed(replicas);
            join(replicas.get(0).registerNode(inventory("n1", gpu("g0", 10, 8000))));
            passes(CONVERGE, () -> replicas.forEach(r -> assertThat(r.node("n1")).isNotNull()));
            HazelcastClusterState owner = ownerOf("n1", replicas);
            List<HazelcastClusterState> survivors = new ArrayList<>(replicas);
            survivors.remove(owner);
            HeldPublications ownersPublications = publications.get(replicas.indexOf(owner));
            ownersPublications.hold();

            join(survivors.get(0).reserve("n1", pod("a"), slice("g0", 5000), 0, 60_000));
            // and a re-registration: new facts (the inventory map) as well as new usage (the summary map)
            join(survivors.get(1).registerNode(inventory("n1", gpu("g0", 10, 16000), gpu("g1", 10, 16000))));

            // committed (with its backup), never published: no view shows either (a third held publication is the
            // owner's own late take-over of n1, from the migrations of the cluster's start, when it comes after hold)
            assertThat(ownersPublications.held()).isBetween(2, 3);
            replicas.forEach(r -> assertThat(r.node("n1").devices()).singleElement()
                    .satisfies(d -> assertThat(d.usedmem()).isZero()));

            owner.member().getLifecycleService().terminate();

            passes(CONVERGE, () -> survivors.forEach(s -> {
                assertThat(s.node("n1")).as("a view joined on the new facts").isNotNull();
                assertThat(s.node("n1").devices()).as("the view of the committed re-registration")
                        .extracting(d -> d.totalmem()).containsExactly(16000, 16000);
                assertThat(s.node("n1").devices().get(0).usedmem()).as("the view of the committed reservation")
                        .isEqualTo(5000);
            }));
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    /** Runs publications at once until {@link #hold()}, then keeps them: an owner that dies before it publishes. */
    private static final class HeldPublications implements Executor {
        private final AtomicBoolean holding = new AtomicBoolean();
        private final AtomicInteger held = new AtomicInteger();

        @Override
        public void execute(Runnable publication) {
            if (holding.get()) {
                held.incrementAndGet();
            } else {
                publication.run();
            }
        }

        void hold() {
            holding.set(true);
        }

        int held() {
            return held.get();
        }
    }

    @Test
    void aGracefulShutdownHandsItsEntriesOverEvenWithoutBackups() {
        StoreConfig config = clusterOf(2, 0, 0);
        HazelcastClusterState leaving = StoreFixtures.startOwning(config);
        HazelcastClusterState staying = StoreFixtures.startOwning(config);
        List<HazelcastClusterState> replicas = List.of(leaving, staying);
        try {
            StoreFixtures.awaitFormed(replicas);
            List<String> nodes = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                nodes.add("node-" + i);
                join(leaving.registerNode(inventory("node-" + i, gpu("g0", 10, 8000))));
                join(leaving.observeBound("node-" + i, pod("p" + i), slice("g0", 1000)));
            }
            assertThat(nodes).anyMatch(leaving::ownsNode);

            join(leaving.shutdown());

            assertThat(leaving.member().getLifecycleService().isRunning()).isFalse();
            for (String node : nodes) {
                assertThat(join(staying.release(node, "p" + node.substring(5)))).as(node).isTrue();
            }
        } finally {
            StoreFixtures.terminate(replicas);
        }
    }

    @Test
    void withoutAQuorumCallsFailAsUnavailableAndServeAgainOnceItIsBack() {
        StoreConfig config = clusterOf(2, 1, 2);
        HazelcastClusterState first = StoreFixtures.startOne(config);
        try {
            Throwable refused = failure(first.registerNode(inventory("n1", gpu("g0", 10, 8000))));

            assertThat(refused).isInstanceOf(ClusterStateUnavailableException.class)
                    .hasCauseInstanceOf(SplitBrainProtectionException.class);
            assertThat(first.node("n1")).isNull();
            assertThat(first.ready().toCompletableFuture()).isNotDone();

            HazelcastClusterState second = StoreFixtures.startOne(config);
            try {
                StoreFixtures.awaitFormed(List.of(first, second));
                assertThat(join(second.registerNode(inventory("n1", gpu("g0", 10, 8000))))).isTrue();
                assertThat(join(first.reserve("n1", pod("a"), slice("g0", 1), 0, 10)).isReserved()).isTrue();
            } finally {
                StoreFixtures.terminate(List.of(second));
            }
        } finally {
            StoreFixtures.terminate(List.of(first));
        }
    }

    private static HazelcastClusterState ownerOf(String node, List<HazelcastClusterState> replicas) {
        return replicas.stream().filter(r -> r.ownsNode(node)).findFirst().orElseThrow();
    }
}
