package io.vgpu.gateway.scheduling;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.ReserveOutcome;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's first registration makes it eligible for {@code /filter}: it must come after the charges of the pods that
 * are bound there (the state rebuilt from the API server after every replica restarted; a lost partition), whatever
 * order the informers deliver node and pod events in.
 */
@ExtendWith(VertxExtension.class)
class NodeRegistrationsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(8000).type("NVIDIA A100").build();
    /** A decision's node lock annotation. */
    private static final String LOCK = NodeLockCodec.value(CLOCK.instant(), ZoneOffset.UTC, "ns", "pod-a");

    private final InMemoryClusterState state = new InMemoryClusterState();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final ClusterState recording = StateIngestTest.recording(state, calls);
    /** Bound pods whose charges have not reached the store yet (the ingest window is behind). */
    private final LiveReads api = new LiveReads(new AtomicInteger());
    private final StateIngest ingest = new StateIngest(recording, NodeHealth.ALWAYS, api,
            LockFixtures.observing(recording, CLOCK));

    @Test
    void aNodeListedBeforeItsBoundPodIsNotOfferedUntilThePodIsCharged(VertxTestContext ctx) {
        ObservedPod survivor = boundPod("survivor", 7000);
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of(survivor));

        ingest.nodeUpserted(registered("n1"));  // the node informer lists first

        assertThat(state.node("n1")).as("not eligible: the surviving pod's charge is not stored").isNull();
        finish(ctx, step(reserve("newcomer", 7000))
                .compose(early -> {
                    assertThat(early).as("so no reservation can take the survivor's memory")
                            .isNotInstanceOf(ReserveOutcome.Reserved.class);
                    return step(ingest.registerAwaiting(cache));
                })
                .compose(registered -> step(reserve("newcomer", 7000)))
                .compose(full -> {
                    assertThat(full).as("the card is full").isNotInstanceOf(ReserveOutcome.Reserved.class);
                    return step(reserve("small", 1000));
                }), small -> {
                    assertThat(state.nodeState("n1").registered()).isTrue();
                    assertThat(state.nodeState("n1").charge("uid-survivor")).isInstanceOf(PodCharge.Bound.class);
                    assertThat(calls.indexOf("observeBound")).as("charged before registered")
                            .isLessThan(calls.indexOf("registerNode"));
                    assertThat(small).isInstanceOf(ReserveOutcome.Reserved.class);
                });
    }

    @Test
    void aNodeWhosePodCouldNotBeChargedWaitsForTheNextResync(VertxTestContext ctx) {
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of(boundPod("survivor", 7000)));
        api.failures().set(1);
        ingest.nodeUpserted(registered("n1"));

        finish(ctx, step(ingest.registerAwaiting(cache)).compose(first -> {
            assertThat(state.node("n1")).as("its pod's live read failed: not registered").isNull();
            return step(ingest.registerAwaiting(cache));
        }), second -> {
            assertThat(state.nodeState("n1").registered()).isTrue();
            assertThat(state.nodeState("n1").charge("uid-survivor")).isInstanceOf(PodCharge.Bound.class);
        });
    }

    @Test
    void aRegisteredNodeIsRegisteredAgainAtOnceAndANewNodeWithoutPodsWaitsOnlyForTheNextTick(VertxTestContext ctx) {
        ingest.nodeUpserted(registered("n1"));
        assertThat(state.nodeState("n1")).isNull();

        finish(ctx, step(ingest.registerAwaiting(new ListedCache(List.of(registered("n1")), List.of())))
                .compose(registered -> {
                    assertThat(state.nodeState("n1").registered()).isTrue();
                    GpuDevice bigger = GpuFixtures.card("GPU-0").memMiB(16000).type("NVIDIA A100").build();
                    ingest.nodeUpserted(new NodeObservation("n1", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
                            NodeRegisterCodec.encode(List.of(bigger))), 1, "2"));
                    assertThat(state.nodeState("n1").devices().get(0).devmem()).as("a new inventory needs no wait")
                            .isEqualTo(16000);
                    return step(ingest.registerAwaiting(new ListedCache(List.of(), List.of())));
                }), none -> assertThat(calls.stream().filter("registerNode"::equals)).hasSize(2));
    }

    @Test
    void theRepairTickRegistersAwaitingNodesOnlyOnceTheInformersHaveListed(Vertx vertx, VertxTestContext ctx) {
        ListedCache cache = new ListedCache(List.of(registered("n1")), List.of(boundPod("survivor", 7000)));
        cache.synced(false);
        IngestRepair repair = IngestRepair.start(vertx, recording, ingest, cache, ClusterEvents.fanOut(List.of(ingest)),
                false);
        ingest.nodeUpserted(registered("n1"));
        // the tick has looked at the unsynced cache twice: it had its chances to register
        Eventually.within(Duration.ofSeconds(5), "two ticks", () -> cache.syncChecks() >= 2);
        assertThat(state.nodeState("n1")).isNull();
        assertThat(repair.ingested()).isFalse();

        cache.synced(true);
        Eventually.within(Duration.ofSeconds(5), "registered after its pod",
                () -> state.nodeState("n1") != null && state.nodeState("n1").registered());
        assertThat(state.nodeState("n1").charge("uid-survivor")).isInstanceOf(PodCharge.Bound.class);
        finish(ctx, step(repair.listed()), listed -> {
            repair.close();
            assertThat(repair.ingested()).isTrue();
        });
    }

    @Test
    void anUnchangedHealthyNodeIsJudgedOnEveryEventButNotRegisteredAgain() {
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());
        AtomicInteger judged = new AtomicInteger();
        StateIngest judging = ingest(recording, new AtomicBoolean(true), judged);

        judging.nodeUpserted(n1(8000, LOCK));  // a decision locks the node
        judging.nodeUpserted(n1(8000, null));  // and unlocks it

        assertThat(judged).as("health judged on each event").hasValue(2);
        assertThat(count("registerNode")).as("the entry processor would have written nothing").isZero();
        assertThat(state.nodeState("n1").registered()).isTrue();
    }

    @Test
    void aChangedInventoryIsRegisteredAtOnceAndThenNotAgain() {
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());

        ingest.nodeUpserted(n1(16000, null));
        assertThat(count("registerNode")).isEqualTo(1);
        assertThat(state.nodeState("n1").devices().get(0).devmem()).isEqualTo(16000);
        ingest.nodeUpserted(n1(16000, LOCK));
        ingest.nodeUpserted(n1(16000, null));

        assertThat(count("registerNode")).as("its own registration shown by the owned copy: settled").isEqualTo(1);
    }

    @Test
    void anUnhealthyNodeIsRemovedThoughItsInventoryIsUnchanged() {
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());

        ingest(recording, new AtomicBoolean(false), new AtomicInteger()).nodeUpserted(n1(8000, LOCK));

        assertThat(count("removeNode")).isEqualTo(1);
        assertThat(state.node("n1")).isNull();
    }

    @Test
    void theNetsRegisterAnUnchangedNodeAnyway(VertxTestContext ctx) {
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());

        // the periodic redelivery goes through the replica's fan-out (IngestRepair)
        ClusterEvents.fanOut(List.of(ingest)).nodeRedelivered(n1(8000, null));
        assertThat(count("registerNode")).as("redelivered").isEqualTo(1);
        finish(ctx, step(ingest.resync(name -> true, new ListedCache(List.of(n1(8000, null)), List.of()))),
                resynced -> assertThat(count("registerNode")).as("and resynced").isEqualTo(2));
    }

    @Test
    void anOwnedCopyThatLagsNeverHidesTheLatestInventory() {
        Map<String, NodeState> copy = new ConcurrentHashMap<>();
        StateIngest lagging = ingest(StateIngestTest.recording(laggingCopy(state, copy), calls), new AtomicBoolean(true),
                new AtomicInteger());
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());
        copy.put("n1", state.nodeState("n1"));

        lagging.nodeUpserted(n1(16000, null));  // the copy does not show it yet
        lagging.nodeUpserted(n1(8000, null));   // back: the copy shows 8000 still, the key holds 16000

        assertThat(count("registerNode")).isEqualTo(2);
        assertThat(state.nodeState("n1").devices().get(0).devmem()).as("the key").isEqualTo(8000);
        copy.put("n1", state.nodeState("n1"));
        lagging.nodeUpserted(n1(8000, LOCK));
        assertThat(count("registerNode")).as("once the copy has caught up: skipped").isEqualTo(2);
    }

    @Test
    void aNodeRemovedAMomentAgoIsRegisteredAgainWhileTheOwnedCopyStillShowsIt() {
        Map<String, NodeState> copy = new ConcurrentHashMap<>();
        AtomicBoolean healthy = new AtomicBoolean(false);
        StateIngest lagging = ingest(StateIngestTest.recording(laggingCopy(state, copy), calls), healthy,
                new AtomicInteger());
        state.registerNode(Recorded.inventory(n1(8000, null)).orElseThrow());
        copy.put("n1", state.nodeState("n1"));

        lagging.nodeUpserted(n1(8000, null));  // unhealthy: removed (the copy still shows it registered)
        healthy.set(true);
        lagging.nodeUpserted(n1(8000, LOCK));

        assertThat(calls).containsSubsequence("removeNode", "registerNode");
        assertThat(state.nodeState("n1").registered()).isTrue();
    }

    private long count(String call) {
        return calls.stream().filter(call::equals).count();
    }

    /** Ingest over {@code target} whose health answers {@code healthy}; each judgement counted in {@code judged}. */
    private StateIngest ingest(ClusterState target, AtomicBoolean healthy, AtomicInteger judged) {
        NodeHealth health = node -> {
            judged.incrementAndGet();
            return CompletableFuture.completedFuture(healthy.get());
        };
        return new StateIngest(target, health, api, LockFixtures.observing(target, CLOCK));
    }

    /**
     * The state, except that its owned copy ({@link ClusterState#nodeState}) shows what {@code copy} holds: what the
     * test put there last (the map's events trail the key under load).
     */
    private static ClusterState laggingCopy(ClusterState target, Map<String, NodeState> copy) {
        return (ClusterState) Proxy.newProxyInstance(NodeRegistrationsTest.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("nodeState")) {
                        return copy.get((String) args[0]);
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Node n1 with one card of {@code memMiB}, locked by a decision ({@link #LOCK}) or not ({@code null}). */
    private static NodeObservation n1(int memMiB, String lock) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, NodeRegisterCodec.encode(List.of(
                GpuFixtures.card("GPU-0").memMiB(memMiB).type("NVIDIA A100").build())));
        if (lock != null) {
            annotations.put(HamiAnnotations.NODE_LOCK, lock);
        }
        return new NodeObservation("n1", annotations, 1, lock == null ? "1" : "2");
    }

    private CompletionStage<ReserveOutcome> reserve(String pod, int memMiB) {
        return state.reserve("n1", new PodRef("uid-" + pod, "ns", pod), allocation(memMiB), CLOCK.millis(),
                CLOCK.millis() + 30_000);
    }

    private static NodeObservation registered(String name) {
        return new NodeObservation(name, Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
                NodeRegisterCodec.encode(List.of(GPU))), 1, "1");
    }

    private static PodAllocation allocation(int memMiB) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-0", "NVIDIA", memMiB, 10))), 0);
    }

    private static ObservedPod boundPod(String name, int memMiB) {
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, "n1",
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation(memMiB).containers()),
                HamiAnnotations.BIND_PHASE, "success");
        PodSpec spec = new PodSpec(name, "ns", "uid-" + name, "hami-scheduler", "n1", null, annotations, Map.of(),
                List.of(), List.of());
        return new ObservedPod(spec, "Running", false, true, "1");
    }

    /** The API server's answer to a live read: the pod as listed (still bound, still there). */
    private record LiveReads(AtomicInteger failures) implements ReadsOnly {

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return CompletableFuture.failedFuture(new IllegalStateException("API server unreachable"));
            }
            return CompletableFuture.completedFuture(Optional.of(boundPod(pod.name(), 7000)));
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(false);
        }
    }
}
