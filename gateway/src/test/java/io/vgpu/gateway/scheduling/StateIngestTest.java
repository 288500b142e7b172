package io.vgpu.gateway.scheduling;

import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/** Informer ingest into the shared state: node-lock release, and the resync of keys whose owner changed. */
@ExtendWith(VertxExtension.class)
class StateIngestTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(8000).type("NVIDIA A100").build();

    private final InMemoryClusterState state = new InMemoryClusterState();
    private final StateIngest ingest = ingestReading(new Writes(Set.of()));

    // ------------------------------------------------------------------ node lock

    @Test
    void aLaggingObservationOfAnEarlierHoldersAnnotationGoingAwayKeepsTheLaterHoldersLock() {
        state.registerNode(new NodeInventory("n1", List.of(GPU), Map.of(), Map.of()));
        state.lockNode("n1", "ns", "b", CLOCK.millis(), 60_000);

        ingest.nodeUpserted(node("n1", "2026-01-01T00:00:00Z,ns,a", "1"));
        ingest.nodeUpserted(node("n1", null, "2"));

        assertThat(state.nodeState("n1").lock()).isNotNull();
        assertThat(state.nodeState("n1").lock().name()).isEqualTo("b");
    }

    @Test
    void theHoldersAnnotationGoingAwayReleasesItsLock() {
        state.registerNode(new NodeInventory("n1", List.of(GPU), Map.of(), Map.of()));
        state.lockNode("n1", "ns", "b", CLOCK.millis(), 60_000);

        ingest.nodeUpserted(node("n1", "2026-01-01T00:00:00Z,ns,b", "1"));
        ingest.nodeUpserted(node("n1", null, "2"));

        assertThat(state.nodeState("n1").lock()).isNull();
    }

    @Test
    void everyReplicaRemembersWhoseLockAnnotationWentAwayEvenOnNodesItDoesNotOwn() {
        long since = CLOCK.millis();
        SeenAnnotations seen = new SeenAnnotations();
        seen.track(node("n9", "2026-01-01T00:00:00Z,ns,b", "1"));
        seen.track(node("n9", null, "2"));

        assertThat(seen.sawReleased("n9", new NodeLockHolder("ns", "b", since))).isTrue();
        assertThat(seen.sawReleased("n9", new NodeLockHolder("ns", "c", since))).isFalse();
        // b holding the lock again later: the annotation that went away was an earlier holding's
        assertThat(seen.sawReleased("n9", new NodeLockHolder("ns", "b", since + 5_000))).isFalse();
        assertThat(seen.sawReleased("n8", new NodeLockHolder("ns", "b", since))).isFalse();
    }

    // ------------------------------------------------------------------ DRA mode

    @Test
    void aNodeLabelledForDraModeIsIneligibleEvenWithItsRegisterAnnotationLeft(VertxTestContext ctx) {
        List<String> health = new CopyOnWriteArrayList<>();
        StateIngest watched = new StateIngest(state, new NodeHealth() {
            @Override
            public CompletionStage<Boolean> healthy(NodeObservation node) {
                health.add(node.name());
                return CompletableFuture.completedFuture(true);
            }

            @Override
            public void forget(String node) {
            }
        }, new Writes(Set.of()), LockFixtures.observing(state, CLOCK));
        watched.nodeUpserted(registered("n1"));
        finish(ctx, step(watched.registerAwaiting(new ListedCache(List.of(registered("n1")), List.of()))), done -> {
            assertThat(state.nodeState("n1").registered()).isTrue();

            NodeObservation dra = registered("n1");
            watched.nodeUpserted(new NodeObservation("n1", dra.annotations(), 1, "2", true));

            assertThat(state.nodeState("n1")).as("its devices are withdrawn from the extender").isNull();
            assertThat(health).as("no handshake is stamped on a DRA node").containsExactly("n1");
            watched.nodeUpserted(new NodeObservation("n1", dra.annotations(), 1, "3", true));
            assertThat(state.nodeState("n1")).as("and never registered again while labelled").isNull();
        });
    }

    // ------------------------------------------------------------------ observations

    @Test
    void observationsOfAPodItsDecisionBoundCostNoStoreCall(VertxTestContext ctx) {
        // the decision charged the device's index; the annotation the informer shows carries none (HAMi's wire):
        // before, each of a decided pod's three bound observations read the pod index and rewrote the node
        state.registerNode(new NodeInventory("n1", List.of(GPU), Map.of(), Map.of()));
        PodAllocation decided = new PodAllocation(List.of(List.of(new ContainerDevice(3, "GPU-0", "NVIDIA", 1000,
                10))), 0);
        PodRef p1 = new PodRef("uid-p1", "ns", "p1");
        List<String> calls = new CopyOnWriteArrayList<>();
        ClusterState recording = recording(state, calls);
        StateIngest recorded = new StateIngest(recording, NodeHealth.ALWAYS, new Writes(Set.of()),
                LockFixtures.observing(recording, CLOCK));
        finish(ctx, step(state.reserve("n1", p1, decided, CLOCK.millis(), CLOCK.millis() + 60_000))
                .compose(r -> step(state.confirm("n1", p1, null, CLOCK.millis())))
                .compose(c -> step(recorded.ingestPod(boundPod("p1", "n1")))), done -> {
                    assertThat(calls).isEmpty();
                    assertThat(state.nodeState("n1").charge("uid-p1"))
                            .isEqualTo(new PodCharge.Bound(decided, "ns", "p1"));
                });
    }

    // ------------------------------------------------------------------ resync

    @Test
    void resyncChargesTheCachedBoundPodsBeforeRegisteringTheirNode(VertxTestContext ctx) {
        List<String> calls = new CopyOnWriteArrayList<>();
        ListedCache cache = new ListedCache(List.of(registered("n1")),
                List.of(boundPod("p1", "n1"), boundPod("p2", "n1")));
        ClusterState recording = recording(state, calls);
        StateIngest recorded = new StateIngest(recording, NodeHealth.ALWAYS,
                new Writes(Set.of(), cache.pods().stream().toList()), LockFixtures.observing(recording, CLOCK));

        finish(ctx, step(recorded.resync("n1"::equals, cache)), done -> {
            assertThat(state.nodeState("n1").registered()).isTrue();
            assertThat(state.nodeState("n1").charges()).containsOnlyKeys("uid-p1", "uid-p2");
            assertThat(state.nodeState("n1").charge("uid-p1")).isInstanceOf(PodCharge.Bound.class);
            assertThat(calls).containsSubsequence("observeBound", "observeBound", "registerNode");
            assertThat(calls.lastIndexOf("observeBound")).isLessThan(calls.indexOf("registerNode"));
        });
    }

    @Test
    void aResyncReadsEachNodeOnceForAllItsCachedPods(VertxTestContext ctx) {
        // at 100 pods per node, a read per pod moved 100 full node values per node through the store on every resync
        List<String> calls = new CopyOnWriteArrayList<>();
        List<ObservedPod> pods = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pods.add(boundPod("p" + i, "n1"));
        }
        ListedCache cache = new ListedCache(List.of(registered("n1")), pods);
        ClusterState recording = recording(state, calls);
        StateIngest recorded = new StateIngest(recording, NodeHealth.ALWAYS,
                new Writes(Set.of(), cache.pods().stream().toList()), LockFixtures.observing(recording, CLOCK));

        finish(ctx, step(recorded.resync("n1"::equals, cache)), done -> {
            assertThat(state.nodeState("n1").charges()).hasSize(40);
            // one read to re-ingest the pods, one to look for charges no pod accounts for
            assertThat(calls.stream().filter("readStoredNode"::equals)).hasSize(2);
        });
    }

    @Test
    void aResyncWaitsUntilTheInformersHaveListed(VertxTestContext ctx) {
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of(boundPod("p1", "n1")));
        cache.synced(false);

        CompletionStage<Void> resync = ingestReading(new Writes(Set.of(), cache.pods().stream().toList()))
                .resync("n1"::equals, cache);
        // the resync has looked at the unsynced cache, waited and looked again: it has had its chance to apply
        Eventually.within(Duration.ofSeconds(5), "a second sync check", () -> cache.syncChecks() >= 2);

        assertThat(resync.toCompletableFuture()).isNotDone();
        assertThat(state.nodeState("n1")).isNull();
        cache.synced(true);
        finish(ctx, step(resync), done -> assertThat(state.nodeState("n1").charges()).containsOnlyKeys("uid-p1"));
    }

    @Test
    void aResyncOfKeysThatMatchTheCachesChangesNothing(VertxTestContext ctx) {
        List<String> calls = new CopyOnWriteArrayList<>();
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of(boundPod("p1", "n1")));
        ClusterState recording = recording(state, calls);
        StateIngest recorded = new StateIngest(recording, NodeHealth.ALWAYS,
                new Writes(Set.of(), cache.pods().stream().toList()), LockFixtures.observing(recording, CLOCK));
        finish(ctx, step(recorded.resync("n1"::equals, cache)).compose(first -> {
            calls.clear();
            return step(recorded.resync("n1"::equals, cache));
        }), again -> assertThat(calls).doesNotContain("observeBound", "release", "reserve", "confirm"));
    }

    @Test
    void resyncNeverChargesACachedPodThatALiveReadNoLongerFinds(VertxTestContext ctx) {
        ListedCache lagging = new ListedCache(List.of(registered("n1")),
                List.of(boundPod("p1", "n1"), boundPod("p2", "n1")));

        CompletionStage<Void> resync = ingestReading(new Writes(Set.of("uid-p1"), List.of(boundPod("p2", "n1"))))
                .resync("n1"::equals, lagging);

        finish(ctx, step(resync), done -> {
            assertThat(state.nodeState("n1").charges()).containsOnlyKeys("uid-p2");
        });
    }

    @Test
    void resyncTouchesOnlyTheMovedKeys(VertxTestContext ctx) {
        ListedCache cache = new ListedCache(List.of(registered("n1"), registered("n2")),
                List.of(boundPod("p1", "n1"), boundPod("p2", "n2")));

        CompletionStage<Void> resync = ingestReading(new Writes(Set.of(), cache.pods().stream().toList()))
                .resync("n2"::equals, cache);

        finish(ctx, step(resync), done -> {
            assertThat(state.nodeState("n1")).isNull();
            assertThat(state.nodeState("n2").charges()).containsOnlyKeys("uid-p2");
        });
    }

    @Test
    void resyncReleasesBoundChargesWhosePodTheApiSaysIsGoneAndKeepsTheOthers(VertxTestContext ctx) {
        state.registerNode(new NodeInventory("n1", List.of(GPU), Map.of(), Map.of()));
        state.observeBound("n1", new PodRef("uid-gone", "ns", "gone"), allocation());
        state.observeBound("n1", new PodRef("uid-unknown", "ns", "unknown"), allocation());
        state.reserve("n1", new PodRef("uid-reserved", "ns", "reserved"), allocation(), CLOCK.millis(),
                CLOCK.millis() + 60_000);
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of());

        CompletionStage<Void> resync = ingestReading(new Writes(Set.of("uid-gone", "uid-reserved")))
                .resync("n1"::equals, cache);

        finish(ctx, step(resync), done -> {
            // gone: released; not known to be gone (exists, or unreadable): kept; reservations expire on their own
            assertThat(state.nodeState("n1").charges()).containsOnlyKeys("uid-unknown", "uid-reserved");
        });
    }

    // ------------------------------------------------------------------ fixtures

    private StateIngest ingestReading(Writes api) {
        return new StateIngest(state, NodeHealth.ALWAYS, api, LockFixtures.observing(state, CLOCK));
    }

    private static NodeObservation node(String name, String lock, String rv) {
        return lock == null ? new NodeObservation(name, Map.of(), 1, rv)
                : new NodeObservation(name, Map.of(HamiAnnotations.NODE_LOCK, lock), 1, rv);
    }

    private static NodeObservation registered(String name) {
        return new NodeObservation(name, Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
                NodeRegisterCodec.encode(List.of(GPU))), 1, "1");
    }

    private static PodAllocation allocation() {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-0", "NVIDIA", 1000, 10))), 0);
    }

    private static ObservedPod boundPod(String name, String node) {
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, node,
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation().containers()),
                HamiAnnotations.BIND_PHASE, "success");
        PodSpec spec = new PodSpec(name, "ns", "uid-" + name, "hami-scheduler", node, null, annotations, Map.of(),
                List.of(), List.of());
        return new ObservedPod(spec, "Running", false, true, "1");
    }

    /** Delegates to {@code target}, recording the names of the change calls in order. */
    static ClusterState recording(ClusterState target, List<String> calls) {
        return (ClusterState) Proxy.newProxyInstance(StateIngestTest.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (CompletionStage.class.isAssignableFrom(method.getReturnType())) {
                        calls.add(method.getName());
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Only the reads matter: the UIDs the API server no longer has, and the pods a live read finds. */
    private record Writes(Set<String> gone, List<ObservedPod> live) implements ReadsOnly {

        Writes(Set<String> gone) {
            this(gone, List.of());
        }

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            return CompletableFuture.completedFuture(live.stream().filter(p -> p.key().equals(pod)).findFirst());
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(gone.contains(pod.uid()));
        }
    }
}
