package io.vgpu.state.store;

import io.vgpu.state.model.ConfirmLockOutcome;
import io.vgpu.state.model.ConfirmOutcome;
import io.vgpu.state.model.LockOutcome;
import io.vgpu.state.model.NodeFacts;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.NodeSummary;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.QuotaLimits;
import io.vgpu.state.model.QuotaOutcome;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.UnlockOutcome;
import io.vgpu.state.store.processor.PublishSummaryProcessor;
import io.vgpu.state.store.processor.ReserveSlicesProcessor;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.MapPartitionLostEventFilter;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.listener.EntryUpdatedListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.state.store.StoreFixtures.clusterOf;
import static io.vgpu.state.store.StoreFixtures.gpu;
import static io.vgpu.state.store.StoreFixtures.inventory;
import static io.vgpu.state.store.StoreFixtures.join;
import static io.vgpu.state.store.StoreFixtures.pod;
import static io.vgpu.state.store.StoreFixtures.slice;
import static io.vgpu.testsupport.Eventually.passes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store on a real 3-member cluster in this JVM (backup count 1). Each test works on its own node keys, so
 * the tests share one cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class HazelcastClusterStateTest {

    private static final Duration CONVERGE = Duration.ofSeconds(10);

    private List<HazelcastClusterState> replicas;

    @BeforeAll
    void startCluster() {
        replicas = StoreFixtures.start(clusterOf(3, 1, 0), 3);
        assertThat(replicas.get(0).member().getCluster().getMembers()).hasSize(3);
    }

    @AfterAll
    void stopCluster() {
        StoreFixtures.terminate(replicas);
    }

    private HazelcastClusterState replica(int i) {
        return replicas.get(i % replicas.size());
    }

    /** The authoritative value, read from the map (not from a snapshot). */
    private NodeState stored(String node) {
        return replica(0).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).get(node);
    }

    /**
     * No replica receives another member's full node values (DESIGN.md §3 "What fans out is O(GPUs), never O(pods)"):
     * every entry listener on the node map, on every member, is a local one (events of the keys that member owns);
     * only the summary and inventory maps have cluster-wide listeners. Partition-lost listeners carry no values.
     */
    @Test
    void noReplicaListensToAnotherMembersNodeValues() {
        for (HazelcastClusterState r : replicas) {
            var events = ((HazelcastInstanceProxy) r.member()).getOriginal().node.getNodeEngine().getEventService();
            var onNodes = events.getRegistrations(MapService.SERVICE_NAME, HazelcastMemberConfig.NODE_MAP);
            assertThat(onNodes).as("the node map's listeners").isNotEmpty();
            assertThat(onNodes).filteredOn(reg -> !(reg.getFilter() instanceof MapPartitionLostEventFilter))
                    .as("entry listeners on the node map").isNotEmpty()
                    .allSatisfy(reg -> assertThat(reg.isLocalOnly()).as("local only").isTrue());
            assertThat(events.getRegistrations(MapService.SERVICE_NAME, HazelcastMemberConfig.SUMMARY_MAP))
                    .as("every replica's summary listener").hasSizeGreaterThanOrEqualTo(replicas.size());
            assertThat(events.getRegistrations(MapService.SERVICE_NAME, HazelcastMemberConfig.INVENTORY_MAP))
                    .as("every replica's facts listener").hasSizeGreaterThanOrEqualTo(replicas.size());
        }
    }

    @Test
    void concurrentReservationsFromAllReplicasNeverExceedCapacity() {
        join(replica(0).registerNode(inventory("race", gpu("g0", 100, 10_000))));
        int attempts = 90;
        List<CompletableFuture<ReserveOutcome>> calls = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 9; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                for (int i = thread; i < attempts; i += 9) {
                    CompletionStage<ReserveOutcome> call = replica(i).reserve("race", pod("p" + i),
                            slice("g0", 300), 0, 1000);
                    synchronized (calls) {
                        calls.add(call.toCompletableFuture());
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        threads.forEach(StoreFixtures::joinThread);

        long reserved = calls.stream().map(StoreFixtures::join).filter(ReserveOutcome::isReserved).count();

        assertThat(calls).hasSize(attempts);
        assertThat(reserved).isEqualTo(10_000 / 300);
        NodeState after = stored("race");
        assertThat(after.charges()).hasSize((int) reserved);
        assertThat(after.view().devices().get(0).usedmem()).isLessThanOrEqualTo(10_000);
    }

    @Test
    void theSameReservationTwiceIsChargedOnce() {
        join(replica(0).registerNode(inventory("twice", gpu("g0", 10, 8000))));
        ReserveSlicesProcessor reserve = new ReserveSlicesProcessor(pod("a"), slice("g0", 5000), 0, 1000);

        ReserveOutcome first = join(replica(1).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP)
                .submitToKey("twice", reserve));
        ReserveOutcome second = join(replica(2).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP)
                .submitToKey("twice", reserve));
        ReserveOutcome viaPort = join(replica(0).reserve("twice", pod("a"), slice("g0", 5000), 0, 1000));

        assertThat(List.of(first, second, viaPort)).containsOnly(new ReserveOutcome.Reserved(1000));
        assertThat(stored("twice").charges()).containsOnlyKeys("a");
        assertThat(stored("twice").view().devices().get(0).usedmem()).isEqualTo(5000);
    }

    @Test
    void expiredReservationsAreSweptOnceByTheOwnerAndVanishFromEverySnapshot() {
        join(replica(0).registerNode(inventory("expiry", gpu("g0", 10, 8000))));
        join(replica(1).reserve("expiry", pod("a"), slice("g0", 2000), 0, 50));
        join(replica(2).observeBound("expiry", pod("b"), slice("g0", 1000)));
        passes(CONVERGE, () -> StoreFixtures.ownerOnlyHolds(replicas, "expiry", stored("expiry")));

        int dropped = replicas.stream().mapToInt(r -> join(r.sweepExpired(100))).sum();

        assertThat(dropped).isEqualTo(1);
        assertThat(stored("expiry").charges()).containsOnlyKeys("b");
        passes(CONVERGE, () -> replicas.forEach(r ->
                assertThat(r.node("expiry").devices().get(0).usedmem()).isEqualTo(1000)));
        passes(CONVERGE, () -> assertThat(join(replica(0).podNode("a"))).isEmpty());
    }

    @Test
    void confirmOfAnExpiredReservationReChecksCapacity() {
        join(replica(0).registerNode(inventory("confirm", gpu("g0", 10, 8000))));
        join(replica(0).reserve("confirm", pod("fits"), slice("g0", 2000), 0, 10));
        join(replica(1).reserve("confirm", pod("late"), slice("g0", 3000), 0, 10));
        // after both expired (not swept), a bound pod takes 5500 MiB: 2000 still fits, 3000 does not
        join(replica(2).observeBound("confirm", pod("other"), slice("g0", 5500)));

        // the gateway passes the allocation from the pod's annotations: an expired entry may already be gone
        assertThat(join(replica(1).confirm("confirm", pod("late"), slice("g0", 3000), 20)))
                .isEqualTo(new ConfirmOutcome.Refused());
        assertThat(join(replica(2).confirm("confirm", pod("fits"), slice("g0", 2000), 20)))
                .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED));
        assertThat(join(replica(0).confirm("confirm", pod("fits"), null, 30)))
                .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.ALREADY_BOUND));
        assertThat(stored("confirm").charges()).containsOnlyKeys("fits", "other");
    }

    @Test
    void confirmAndLockIsOneStepThatAContendedLockUndoes() {
        join(replica(0).registerNode(inventory("bind", gpu("g0", 10, 8000))));
        join(replica(0).reserve("bind", pod("a"), slice("g0", 1000), 0, 100));
        join(replica(1).lockNode("bind", "ns", "other", 0, 1000));

        ConfirmLockOutcome contended = join(replica(2).confirmAndLock("bind", pod("a"), null, 5, 1000));

        assertThat(contended.lock()).isEqualTo(new LockOutcome.Contended(new NodeLockHolder("ns", "other", 0)));
        assertThat(stored("bind").charge("a")).isInstanceOf(PodCharge.Reserved.class);
        assertThat(stored("bind").lock().name()).isEqualTo("other");

        join(replica(1).unlockNode("bind", "ns", "other"));
        ConfirmLockOutcome both = join(replica(2).confirmAndLock("bind", pod("a"), null, 6, 1000));

        assertThat(both.applied()).isTrue();
        assertThat(stored("bind").charge("a")).isInstanceOf(PodCharge.Bound.class);
        assertThat(stored("bind").lock()).isEqualTo(new NodeLockHolder("ns", "pod-a", 6));
    }

    @Test
    void summariesArePublishedInVersionOrderWhateverOrderTheyArriveIn() {
        IMap<String, NodeSummary> summaries = replica(0).member().getMap(HazelcastMemberConfig.SUMMARY_MAP);

        summaries.executeOnKey("ordered", new PublishSummaryProcessor(new NodeSummary("ordered", 5, 0, null, null, false)));
        summaries.executeOnKey("ordered", new PublishSummaryProcessor(new NodeSummary("ordered", 4, 0, null, null, false)));

        assertThat(summaries.get("ordered").version()).isEqualTo(5);

        summaries.executeOnKey("ordered", new PublishSummaryProcessor(new NodeSummary("ordered", 3, 0, null, null, true)));

        assertThat(summaries.get("ordered").version()).as("a reset").isEqualTo(3);
    }

    @Test
    void everyChangeIsPublishedAsTheSummaryOfItsVersion() {
        join(replica(0).registerNode(inventory("versions", gpu("g0", 10, 8000))));
        join(replica(1).reserve("versions", pod("a"), slice("g0", 1000), 0, 100));
        join(replica(2).lockNode("versions", "ns", "pod-a", 0, 1000));
        IMap<String, NodeSummary> summaries = replica(0).member().getMap(HazelcastMemberConfig.SUMMARY_MAP);

        assertThat(stored("versions").version()).isEqualTo(3);
        passes(CONVERGE, () -> assertThat(summaries.get("versions")).isEqualTo(NodeSummary.of(stored("versions"))));
        passes(CONVERGE, () -> replicas.forEach(r -> assertThat(r.node("versions"))
                .isEqualTo(stored("versions").view())));

        join(replica(1).release("versions", "a"));
        join(replica(2).unlockNode("versions", "ns", "pod-a"));
        join(replica(0).removeNode("versions"));

        passes(CONVERGE, () -> assertThat(summaries.get("versions")).isNull());
        passes(CONVERGE, () -> replicas.forEach(r -> assertThat(r.node("versions")).isNull()));
    }

    /**
     * A decision changes usage, never facts: what a replica receives for it is the summary alone (no facts event), and
     * without the old value (the summary map is OBJECT and written by an entry processor, which leaves it out).
     */
    @Test
    void aUsageChangeSendsOnlyTheSummaryAndNoOldValue() {
        join(replica(0).registerNode(inventory("usage", gpu("g0", 10, 8000), gpu("g1", 10, 8000))));
        passes(CONVERGE, () -> replicas.forEach(r -> assertThat(r.node("usage")).isEqualTo(stored("usage").view())));
        AtomicInteger summaryEvents = new AtomicInteger();
        AtomicInteger withOldValue = new AtomicInteger();
        AtomicInteger factsEvents = new AtomicInteger();
        IMap<String, NodeSummary> summaries = replica(1).member().getMap(HazelcastMemberConfig.SUMMARY_MAP);
        IMap<String, NodeFacts> facts = replica(1).member().getMap(HazelcastMemberConfig.INVENTORY_MAP);
        UUID onSummaries = summaries.addEntryListener((EntryUpdatedListener<String, NodeSummary>) e -> {
            summaryEvents.incrementAndGet();
            if (e.getOldValue() != null) {
                withOldValue.incrementAndGet();
            }
        }, "usage", true);
        UUID onFacts = facts.addEntryListener((EntryUpdatedListener<String, NodeFacts>) e -> factsEvents.incrementAndGet(),
                "usage", true);
        try {
            for (int i = 0; i < 5; i++) {
                join(replica(i).reserve("usage", pod("u" + i), slice(i % 2 == 0 ? "g0" : "g1", 1000), 0, 1000));
            }
            join(replica(2).lockNode("usage", "ns", "pod-u0", 0, 1000));
            join(replica(0).unlockNode("usage", "ns", "pod-u0"));

            passes(CONVERGE, () -> {
                assertThat(summaryEvents).as("one summary per change").hasValue(7);
                replicas.forEach(r -> assertThat(r.node("usage")).isEqualTo(stored("usage").view()));
            });
            assertThat(withOldValue).as("summary events with the old value").hasValue(0);
            assertThat(factsEvents).as("facts events for usage changes").hasValue(0);
        } finally {
            summaries.removeEntryListener(onSummaries);
            facts.removeEntryListener(onFacts);
        }
    }

    @Test
    void reRegistrationWithChangedFactsReachesEveryView() {
        join(replica(0).registerNode(inventory("rereg", gpu("g0", 10, 8000))));
        join(replica(1).reserve("rereg", pod("a"), slice("g0", 1000), 0, 1000));
        passes(CONVERGE, () -> replicas.forEach(r -> assertThat(r.node("rereg")).isEqualTo(stored("rereg").view())));

        join(replica(2).registerNode(new NodeInventory("rereg", List.of(gpu("g0", 10, 16000), gpu("g1", 10, 16000)),
                Map.of("hami.io/device-cordon", "g1"), Map.of())));

        passes(CONVERGE, () -> replicas.forEach(r -> {
            assertThat(r.node("rereg")).isEqualTo(stored("rereg").view());
            assertThat(r.node("rereg").devices()).extracting(d -> d.totalmem()).containsExactly(16000, 16000);
            assertThat(r.node("rereg").devices().get(0).usedmem()).isEqualTo(1000);
        }));
    }

    @Test
    void boundNeverRegressesToReserved() {
        join(replica(0).registerNode(inventory("forward", gpu("g0", 10, 8000))));
        join(replica(0).reserve("forward", pod("a"), slice("g0", 1000), 0, 10));
        join(replica(1).confirm("forward", pod("a"), null, 5));

        // another allocation asked for: the answer names the devices the binding holds
        assertThat(join(replica(2).reserve("forward", pod("a"), slice("g0", 2000), 6, 100)))
                .isEqualTo(new ReserveOutcome.AlreadyBound(slice("g0", 1000)));
        assertThat(join(replica(2).observeBound("forward", pod("a"), slice("g0", 1000)))).isFalse();
        replicas.forEach(r -> join(r.sweepExpired(Long.MAX_VALUE - 1)));
        assertThat(stored("forward").charge("a")).isInstanceOf(PodCharge.Bound.class);
    }

    @Test
    void everyReplicaSnapshotConvergesOnTheStoredValue() {
        join(replica(0).registerNode(inventory("snap", gpu("g0", 10, 16000), gpu("g1", 10, 16000))));
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            writes.add(replica(i).reserve("snap", pod("s" + i), slice(i % 2 == 0 ? "g0" : "g1", 1000), 0, 1000)
                    .toCompletableFuture());
        }
        writes.forEach(StoreFixtures::join);
        join(replica(1).release("snap", "s3"));
        join(replica(2).lockNode("snap", "ns", "pod-s0", 0, 1000));

        passes(CONVERGE, () -> {
            StoreFixtures.ownerOnlyHolds(replicas, "snap", stored("snap"));
            replicas.forEach(r -> assertThat(r.node("snap")).isEqualTo(stored("snap").view()));
        });
        assertThat(stored("snap").charges()).hasSize(11);
        assertThat(stored("snap").lock()).isEqualTo(new NodeLockHolder("ns", "pod-s0", 0));
        assertThat(replica(2).nodes()).extracting(v -> v.name()).contains("snap");
    }

    @Test
    void lockContentionHasExactlyOneWinner() {
        join(replica(0).registerNode(inventory("lock", gpu("g0", 10, 8000))));
        List<CompletableFuture<LockOutcome>> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            calls.add(replica(i).lockNode("lock", "ns", "p" + i, 1000, 5000).toCompletableFuture());
        }
        List<LockOutcome> outcomes = calls.stream().map(StoreFixtures::join).toList();
        NodeLockHolder winner = stored("lock").lock();

        assertThat(outcomes).filteredOn(LockOutcome::holds).hasSize(1);
        assertThat(outcomes).filteredOn(o -> !o.holds()).containsOnly(new LockOutcome.Contended(winner));
        String loser = winner.name().equals("p0") ? "p1" : "p0";
        assertThat(join(replica(1).unlockNode("lock", "ns", loser)))
                .isEqualTo(new UnlockOutcome.NotHolder(winner));
        assertThat(join(replica(2).lockNode("lock", "ns", winner.name(), 2000, 5000)))
                .isEqualTo(new LockOutcome.Held(1000));
        assertThat(join(replica(0).lockNode("lock", "ns", loser, 6001, 5000)))
                .isEqualTo(new LockOutcome.Acquired(6001, winner));
        assertThat(join(replica(1).unlockNode("lock", "ns", loser))).isEqualTo(new UnlockOutcome.Unlocked());
        assertThat(join(replica(1).unlockNode("lock", "ns", loser))).isEqualTo(new UnlockOutcome.NotLocked());
    }

    @Test
    void aReFilteredPodReservesOnItsNewNodeAndItsOldEntryFoundInTheIndexIsReleased() {
        join(replica(0).registerNode(inventory("old", gpu("g0", 10, 8000))));
        join(replica(0).registerNode(inventory("new", gpu("g0", 10, 8000))));
        join(replica(1).reserve("old", pod("mover"), slice("g0", 4000), 0, 1000));
        passes(CONVERGE, () -> assertThat(join(replica(2).podNode("mover"))).contains("old"));

        // nobody releases the old entry explicitly (the filter that moved the pod may not know where it was)
        assertThat(join(replica(2).reserve("new", pod("mover"), slice("g0", 4000), 10, 1000)).isReserved()).isTrue();

        passes(CONVERGE, () -> {
            assertThat(join(replica(0).podNode("mover"))).contains("new");
            assertThat(stored("old").charges()).isEmpty();
            assertThat(stored("new").charges()).containsOnlyKeys("mover");
        });
    }

    @Test
    void releasingAReservationKeepsABinding() {
        join(replica(0).registerNode(inventory("undo", gpu("g0", 10, 8000))));
        join(replica(1).reserve("undo", pod("reserved"), slice("g0", 1000), 0, 1000));
        join(replica(1).reserve("undo", pod("bound"), slice("g0", 1000), 0, 1000));
        join(replica(1).confirm("undo", pod("bound"), null, 10));

        assertThat(join(replica(2).releaseReservation("undo", "reserved"))).isTrue();
        assertThat(join(replica(2).releaseReservation("undo", "bound"))).isFalse();

        assertThat(stored("undo").charges()).containsOnlyKeys("bound");
        passes(CONVERGE, () -> {
            assertThat(join(replica(0).podNode("reserved"))).isEmpty();
            assertThat(join(replica(0).podNode("bound"))).contains("undo");
        });
    }

    @Test
    void aBindThatReReservesOnAnotherNodeReleasesTheOldEntryToo() {
        join(replica(0).registerNode(inventory("was", gpu("g0", 10, 8000))));
        join(replica(0).registerNode(inventory("is", gpu("g0", 10, 8000))));
        join(replica(1).reserve("was", pod("rebound"), slice("g0", 4000), 0, 1000));
        passes(CONVERGE, () -> assertThat(join(replica(2).podNode("rebound"))).contains("was"));

        // the bind on "is" finds no reservation there and re-reserves the pod's recorded allocation
        assertThat(join(replica(2).confirm("is", pod("rebound"), slice("g0", 4000), 10)))
                .isEqualTo(new ConfirmOutcome.Confirmed(ConfirmOutcome.Via.RE_RESERVED));

        passes(CONVERGE, () -> {
            assertThat(stored("was").charges()).isEmpty();
            assertThat(stored("is").charges()).containsOnlyKeys("rebound");
        });
    }

    @Test
    void quotaIsCheckedAtomicallyAcrossReplicas() {
        join(replica(0).setQuotaLimits("team", new QuotaLimits(10_000, true, 0, false)));
        List<CompletableFuture<QuotaOutcome>> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            calls.add(replica(i).reserveQuota("team", "q" + i, 1000, 0, 0, 1000).toCompletableFuture());
        }
        List<String> reserved = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            if (join(calls.get(i)).isReserved()) {
                reserved.add("q" + i);
            }
        }

        assertThat(reserved).hasSize(10);
        assertThat(join(replica(1).releaseQuota("team", reserved.get(0)))).isTrue();
        passes(CONVERGE, () -> replicas.forEach(r ->
                assertThat(r.quota("team").memory().used()).isEqualTo(9000)));
        assertThat(join(replica(2).reserveQuota("team", "late", 20_000, 0, 0, 1000)))
                .isEqualTo(new QuotaOutcome.Exceeded(true, false));
    }

    @Test
    void unknownNodesAreOutcomesAndRemovedNodesVanishEverywhere() {
        assertThat(join(replica(0).reserve("ghost", pod("a"), slice("g0", 1), 0, 10)))
                .isEqualTo(new ReserveOutcome.UnknownNode());
        assertThat(stored("ghost")).isNull();

        join(replica(0).registerNode(inventory("gone", gpu("g0", 10, 8000))));
        join(replica(1).observeBound("gone", pod("a"), slice("g0", 1000)));
        assertThat(join(replica(2).removeNode("gone"))).isTrue();
        assertThat(join(replica(2).removeNode("gone"))).isFalse();

        passes(CONVERGE, () -> replicas.forEach(r -> {
            assertThat(r.node("gone")).isNull();
            assertThat(r.nodeState("gone")).isNull();
        }));
        passes(CONVERGE, () -> assertThat(join(replica(0).podNode("a"))).isEmpty());
    }

    @Test
    void exactlyOneReplicaOwnsEachNode() {
        AtomicInteger owners = new AtomicInteger();
        for (String node : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
            owners.set(0);
            replicas.forEach(r -> owners.addAndGet(r.ownsNode(node) ? 1 : 0));
            assertThat(owners.get()).as(node).isEqualTo(1);
        }
    }
}
