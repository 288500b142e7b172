package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.gateway.testflow.TestFlow.eventually;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Bound charge left on a node its pod is no longer on (docs/reliability.md, p-5175: a replica killed between its
 * confirmation and its pod-index write; the re-filter elsewhere released nothing) is released well inside the chaos
 * checker's 15 s bound for a move, not by the 30 s resync; and only through the live rules of {@link ChargeMoves}.
 */
@ExtendWith(VertxExtension.class)
class PhantomSweepTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(8000).type("NVIDIA A100").build();

    private final InMemoryClusterState state = new InMemoryClusterState();
    private final AtomicInteger liveReads = new AtomicInteger();

    @Test
    void aChargeTheCacheShowsOnAnotherNodeIsReleasedAtItsSecondSightingAndOnlyThere(VertxTestContext ctx) {
        registered("node-2", "node-4");
        charged("node-2", "p");  // the phantom: confirmed here, its index write lost with the replica
        charged("node-4", "p");  // the re-filter and bind that followed
        ListedCache cache = cached(boundPod("p", "node-4"));
        PhantomSweep sweep = sweepReading(cache, Set.of(), List.of(boundPod("p", "node-4")));

        finish(ctx, step(sweep.sweep()).compose(first -> {
            assertThat(state.nodeState("node-2").charges()).as("one sighting: kept").containsOnlyKeys("uid-p");
            assertThat(liveReads.get()).as("and read nothing live").isZero();
            return step(sweep.sweep());
        }), second -> {
            assertThat(state.nodeState("node-2").charges()).as("the phantom is released").isEmpty();
            assertThat(state.nodeState("node-4").charges()).as("the pod's own charge stays").containsOnlyKeys("uid-p");
            assertThat(liveReads.get()).isEqualTo(1);
        });
    }

    @Test
    void aChargeWhosePodTheLiveReadStillPutsThereIsKept(VertxTestContext ctx) {
        registered("node-2", "node-4");
        charged("node-2", "p");
        // the cache lags a re-filter back onto node-2: the live pod names node-2
        PhantomSweep sweep = sweepReading(cached(boundPod("p", "node-4")), Set.of(), List.of(boundPod("p", "node-2")));

        finish(ctx, twice(sweep), done -> {
            assertThat(state.nodeState("node-2").charges()).containsOnlyKeys("uid-p");
            assertThat(liveReads.get()).isEqualTo(1);
        });
    }

    @Test
    void aChargeWhosePodTheCacheNamesOnItsNodeIsKeptWithoutALiveRead(VertxTestContext ctx) {
        registered("node-2");
        charged("node-2", "q");
        PhantomSweep sweep = sweepReading(cached(boundPod("q", "node-2")), Set.of(), List.of());

        finish(ctx, twice(sweep), done -> {
            assertThat(state.nodeState("node-2").charges()).containsOnlyKeys("uid-q");
            assertThat(liveReads.get()).isZero();
        });
    }

    @Test
    void aChargeWhosePodTheCacheLacksIsReleasedWhenTheApiSaysGoneAndKeptWhileItHasIt(VertxTestContext ctx) {
        registered("node-2");
        charged("node-2", "gone");
        charged("node-2", "created");  // the cache lags its create: the API server has it
        charged("node-2", "recreated");
        // the cache has a pod of that name, another incarnation: the charged one is gone
        ObservedPod successor = boundPod("recreated", "node-2", "uid-successor");
        PhantomSweep sweep = sweepReading(cached(successor), Set.of("uid-gone", "uid-recreated"), List.of());

        finish(ctx, step(sweep.sweep()).compose(first -> {
            assertThat(state.nodeState("node-2").charges()).as("one sighting: all kept").hasSize(3);
            return step(sweep.sweep());
        }), second -> assertThat(state.nodeState("node-2").charges()).containsOnlyKeys("uid-created"));
    }

    @Test
    void nothingIsSweptBeforeTheInformersHaveListed(VertxTestContext ctx) {
        registered("node-2");
        charged("node-2", "gone");
        ListedCache unlisted = cached();
        unlisted.synced(false);
        PhantomSweep sweep = sweepReading(unlisted, Set.of("uid-gone"), List.of());

        finish(ctx, twice(sweep), done -> {
            assertThat(state.nodeState("node-2").charges()).containsOnlyKeys("uid-gone");
            assertThat(liveReads.get()).isZero();
        });
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void theRepairNetsReleaseAPhantomWithinTheFifteenSecondBoundOfAMove(Vertx vertx, VertxTestContext ctx) {
        registered("node-2", "node-4");
        charged("node-2", "p");
        charged("node-4", "p");
        ListedCache cache = cached(boundPod("p", "node-4"));
        StateIngest ingest = new StateIngest(state, NodeHealth.ALWAYS, new Api(Set.of(),
                List.of(boundPod("p", "node-4")), liveReads), LockFixtures.observing(state, CLOCK));
        IngestRepair repair = IngestRepair.start(vertx, state, ingest, cache, ClusterEvents.fanOut(List.of(ingest)),
                false);

        finish(ctx, eventually(vertx, Duration.ofSeconds(15), "the phantom on node-2 released",
                () -> Future.succeededFuture(state.nodeState("node-2").charges().isEmpty())), released -> {
                    repair.close();
                    assertThat(state.nodeState("node-4").charges()).containsOnlyKeys("uid-p");
                });
    }

    // ------------------------------------------------------------------ fixtures

    private PhantomSweep sweepReading(ListedCache cache, Set<String> gone, List<ObservedPod> live) {
        return new PhantomSweep(state, new ChargeMoves(state, new Api(gone, live, liveReads), new StoredReads(state)), cache);
    }

    private static Future<Void> twice(PhantomSweep sweep) {
        return step(sweep.sweep()).compose(first -> step(sweep.sweep()));
    }

    private void registered(String... nodes) {
        for (String node : nodes) {
            state.registerNode(new NodeInventory(node, List.of(GPU), Map.of(), Map.of()));
        }
    }

    private void charged(String node, String pod) {
        state.observeBound(node, new PodRef("uid-" + pod, "ns", pod), allocation());
    }

    private static ListedCache cached(ObservedPod... pods) {
        return new ListedCache(List.of(), List.of(pods));
    }

    private static PodAllocation allocation() {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-0", "NVIDIA", 1000, 10))), 0);
    }

    private static ObservedPod boundPod(String name, String node) {
        return boundPod(name, node, "uid-" + name);
    }

    private static ObservedPod boundPod(String name, String node, String uid) {
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, node,
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation().containers()),
                HamiAnnotations.BIND_PHASE, "success");
        PodSpec spec = new PodSpec(name, "ns", uid, "hami-scheduler", node, null, annotations, Map.of(), List.of(),
                List.of());
        return new ObservedPod(spec, "Running", false, true, "1");
    }

    /** The API server: the UIDs it no longer has, the pods a live read finds; each live read counted. */
    private record Api(Set<String> gone, List<ObservedPod> live, AtomicInteger reads) implements ReadsOnly {

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(live.stream().filter(p -> p.key().equals(pod)).findFirst());
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(gone.contains(pod.uid()));
        }
    }
}
