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
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.ReserveOutcome;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
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
        IngestRepair repair = IngestRepair.start(vertx, recording, ingest, cache, ClusterEvents.fanOut(List.of(ingest)));
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
