package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ClusterCache;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.gateway.core.request.NvidiaConfig;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.onContext;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BindService} rules the end-to-end suite cannot pin down deterministically, because they depend on how far
 * the informer cache lags the API server: here the cache is a fake that never catches up.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BindServiceTest {

    private static final String NODE = "node-a";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-01T06:00:00Z"), ZoneOffset.UTC);
    private static final PodAllocation ONE_SHARE = new PodAllocation(
            List.of(List.of(new ContainerDevice(0, "GPU-a", "NVIDIA", 20000, 0))), 0);

    private final InMemoryClusterState state = new InMemoryClusterState();
    private final RecordingWrites writes = new RecordingWrites();
    private final List<String> locks = new ArrayList<>();
    private Vertx vertx;

    @BeforeEach
    void registerNode(Vertx vertx) {
        this.vertx = vertx;
        state.registerNode(GpuFixtures.node(NODE, GpuFixtures.card("GPU-a").memMiB(32768).type("NVIDIA-V100").build()));
        state.registerNode(GpuFixtures.node("node-b",
                GpuFixtures.card("GPU-b").memMiB(32768).type("NVIDIA-V100").build()));
    }

    @Test
    void aRetriedBindThatTheCacheHasNotSeenBoundSucceedsWithoutLockBindPhaseOrBinding(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.confirm(NODE, ref(pod), null, CLOCK.millis()); // the first bind confirmed it, then bound the pod
        writes.livePod = pod;
        writes.liveNode = NODE;

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(locks).isEmpty();
            assertThat(writes.bindPhases).isZero();
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aRetryAfterABindThatFailedPastItsConfirmationBindsAgain(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.confirm(NODE, ref(pod), null, CLOCK.millis());
        writes.livePod = pod;
        writes.liveNode = ""; // the Binding never landed

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(locks).containsExactly(NODE);
            assertThat(writes.bindPhases).isEqualTo(1);
            assertThat(writes.bindings).isEqualTo(1);
        });
    }

    @Test
    void aPodTheApiShowsBoundElsewhereIsRefused(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.confirm(NODE, ref(pod), null, CLOCK.millis());
        writes.livePod = pod;
        writes.liveNode = "node-b";

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), result -> {
            assertThat(error(result)).isEqualTo("pod ns/p is already bound to node node-b");
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aBindingRefusedBecauseThePodWasBoundElsewhereMeanwhileDropsTheChargeItsConfirmationMade(
            VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        // a filter's reservation whose answer was lost; the pod was then placed on node-b, which this cache lags
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        writes.bindingAnswer = new BindingOutcome.BoundElsewhere("node-b", "pod p is already assigned to node \"node-b\"");

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), result -> {
            assertThat(error(result)).isEqualTo("pod p is already assigned to node \"node-b\"");
            assertThat(state.nodeState(NODE).charge(pod.uid())).as("a Bound charge of a pod running elsewhere")
                    .isNull();
        });
    }

    @Test
    void theRecordedAllocationIsReReservedOnlyOnTheNodeTheFilterChose(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE); // annotated for node-a, but no reservation anywhere (expired and swept)

        Future<BindOutcome> chosen = bind(service(cacheShowing(pod)), pod, "node-b").compose(elsewhere -> {
            assertThat(error(elsewhere)).isEqualTo("cannot bind ns/p to node-b: no reservation (filter first)");
            assertThat(state.nodeState("node-b").charges()).isEmpty();
            assertThat(locks).isEmpty();
            return bind(service(cacheShowing(pod)), pod, NODE);
        });

        finish(ctx, chosen, result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(state.nodeState(NODE).charge(FilterFixtures.uidOf("p"))).isInstanceOf(PodCharge.Bound.class);
        });
    }

    @Test
    void theRecordedAllocationIsNotReReservedWhenAFilterPlacedThePodElsewhereSince(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE); // this replica's cache still shows the first filter's annotation
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        // its bind failed; a later filter placed the pod on node-b (the reservation there moved the pod index)
        state.reserve("node-b", ref(pod), new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-b", "NVIDIA",
                20000, 0))), 0), CLOCK.millis(), CLOCK.millis() + 25_000);

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), late -> {
            assertThat(error(late)).isEqualTo("cannot bind ns/p to node-a: no reservation (the pod was placed on "
                    + "node-b since)");
            assertThat(state.nodeState(NODE).charges()).isEmpty();
            assertThat(locks).isEmpty();
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aPodTheCacheHasNotSeenYetIsReadLiveAndBound(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        writes.livePod = pod;

        finish(ctx, bind(service(emptyCache()), pod, NODE), result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(writes.bindings).isEqualTo(1);
            assertThat(state.nodeState(NODE).charge(FilterFixtures.uidOf("p"))).isInstanceOf(PodCharge.Bound.class);
        });
    }

    @Test
    void aPodNeitherCachedNorInTheApiIsNotFoundAndItsReservationIsDropped(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);

        finish(ctx, bind(service(emptyCache()), pod, NODE), result -> {
            assertThat(error(result)).isEqualTo("pod \"p\" not found");
            assertThat(state.nodeState(NODE).charges()).isEmpty();
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aSecondBindOfABoundPodThatCannotBeReadChangesNothing(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.confirm(NODE, ref(pod), null, CLOCK.millis()); // bound a moment ago
        writes.unreadable = true; // a lagging cache, and the API server rate-limits the live read

        // a scheduler that has not seen the binding binds the pod again, elsewhere
        finish(ctx, bind(service(emptyCache()), pod, "node-b"), result -> {
            assertThat(error(result)).isEqualTo("pod ns/p could not be read (the informer cache has not seen it, and "
                    + "the API server did not answer: no answer); nothing changed");
            assertThat(state.nodeState(NODE).charge(FilterFixtures.uidOf("p"))).isInstanceOf(PodCharge.Bound.class);
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aGonePodsBindingIsLeftToItsDeleteOnlyAReservationIsDropped(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.confirm(NODE, ref(pod), null, CLOCK.millis());

        finish(ctx, bind(service(emptyCache()), pod, "node-b"), result -> {
            assertThat(error(result)).isEqualTo("pod \"p\" not found");
            assertThat(state.nodeState(NODE).charge(FilterFixtures.uidOf("p"))).isInstanceOf(PodCharge.Bound.class);
        });
    }

    @Test
    void aNodeAnUnsyncedCacheHasNotSeenChangesNothing(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);

        // a replica just started: its caches hold the pod but not yet the node
        finish(ctx, bind(service(cache(Optional.of(observed(pod)), false, false)), pod, NODE), result -> {
            assertThat(result).isEqualTo(new BindOutcome.Refused(DecisionFailure.CACHE_NOT_SYNCED, "node \"node-a\" "
                    + "is not in this replica's informer cache, which has not synced yet; nothing changed"));
            assertThat(state.nodeState(NODE).charge(pod.uid())).as("the reservation, kept for the next bind")
                    .isInstanceOf(PodCharge.Reserved.class);
            assertThat(locks).isEmpty();
            assertThat(writes.bindPhases).isZero();
            assertThat(writes.bindings).isZero();
        });
    }

    @Test
    void aNodeASyncedCacheDoesNotHoldDropsThePodsReservation(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);

        finish(ctx, bind(service(cache(Optional.of(observed(pod)), false, true)), pod, NODE), result -> {
            assertThat(result).isEqualTo(new BindOutcome.Refused(DecisionFailure.NODE_NOT_FOUND,
                    "node \"node-a\" not found"));
            assertThat(state.nodeState(NODE).charges()).isEmpty();
            assertThat(writes.bindings).isZero();
        });
    }

    // ------------------------------------------------------------------ fixtures

    private static PodSpec filteredPod(String node) {
        Container cuda = new Container("cuda", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "20000"), Map.of(),
                false, List.of());
        return new PodSpec("p", "ns", FilterFixtures.uidOf("p"), "hami-scheduler", "", null, Map.of(
                HamiAnnotations.VGPU_NODE, node,
                HamiAnnotations.DEVICES_ALLOCATED, "GPU-a,NVIDIA,20000,0:;",
                HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA,20000,0:;"), Map.of(), List.of(), List.of(cuda));
    }

    private static io.vgpu.state.model.PodRef ref(PodSpec pod) {
        return new io.vgpu.state.model.PodRef(pod.uid(), pod.namespace(), pod.name());
    }

    @Test
    void aContendedBindClearsASharedLockWhoseAnnotationThisReplicaSawGoAway(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.lockNode(NODE, "ns", "q", CLOCK.millis(), 300_000); // q's bind is done; its owner has not seen it yet
        writes.livePod = pod;
        NodeLocks locks = nodeLocks();
        // this replica saw q's annotation come and go
        locks.observed(new NodeObservation(NODE, Map.of(HamiAnnotations.NODE_LOCK,
                NodeLockCodec.value(CLOCK.instant(), ZoneOffset.UTC, "ns", "q")), 1, "1"), false);
        locks.observed(new NodeObservation(NODE, Map.of(), 1, "2"), false);

        finish(ctx, bind(service(cacheShowing(pod), locks), pod, NODE), result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(state.nodeState(NODE).lock().name()).isEqualTo("p");
        });
    }

    @Test
    void aBindThatFindsTheLockContendedConfirmsNothingAndIsRefusedWhenTheWaitEnds(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.lockNode(NODE, "ns", "q", CLOCK.millis(), 300_000); // q binds on this node right now
        SchedulingConfig noWait = new SchedulingConfig(Duration.ofSeconds(25), 3, Duration.ofMinutes(5),
                Duration.ZERO, Duration.ofMillis(10), Duration.ofSeconds(10));

        finish(ctx, bind(service(cacheShowing(pod), LockFixtures.free(vertx, state, CLOCK, locks, noWait)), pod, NODE),
                result -> {
                    assertThat(error(result)).contains("node-a").contains("locked");
                    assertThat(state.nodeState(NODE).charge(pod.uid())).as("the reservation, not confirmed")
                            .isInstanceOf(PodCharge.Reserved.class);
                    assertThat(state.nodeState(NODE).lock().name()).isEqualTo("q");
                    assertThat(locks).isEmpty();
                    assertThat(writes.bindPhases).isZero();
                });
    }

    @Test
    void aContendedBindConfirmsAndLocksInOneStepOnceTheHolderReleases(VertxTestContext ctx) {
        PodSpec pod = filteredPod(NODE);
        state.reserve(NODE, ref(pod), ONE_SHARE, CLOCK.millis(), CLOCK.millis() + 25_000);
        state.lockNode(NODE, "ns", "q", CLOCK.millis(), 300_000);
        List<PodCharge> seenWhileContended = new ArrayList<>();
        vertx.setTimer(150, t -> {
            seenWhileContended.add(state.nodeState(NODE).charge(pod.uid()));
            state.unlockNode(NODE, "ns", "q");
        });

        finish(ctx, bind(service(cacheShowing(pod)), pod, NODE), result -> {
            assertThat(result).isEqualTo(BindOutcome.BOUND);
            assertThat(seenWhileContended).singleElement().isInstanceOf(PodCharge.Reserved.class);
            assertThat(state.nodeState(NODE).charge(pod.uid())).isInstanceOf(PodCharge.Bound.class);
            assertThat(state.nodeState(NODE).lock().name()).isEqualTo("p");
            assertThat(writes.bindings).isEqualTo(1);
        });
    }

    private BindService service(ClusterCache cache) {
        return service(cache, nodeLocks());
    }

    private NodeLocks nodeLocks() {
        return LockFixtures.free(vertx, state, CLOCK, locks);
    }

    private BindService service(ClusterCache cache, NodeLocks nodeLocks) {
        return new BindService(cache, state, nodeLocks, writes, EventSink.NONE,
                new RequestDeriver(NvidiaConfig.defaults()), SchedulingConfig.DEFAULTS, CLOCK);
    }

    /** Binds on a Vert.x context, as the handler does. */
    private Future<BindOutcome> bind(BindService service, PodSpec pod, String node) {
        return onContext(vertx, () -> service.bind(new BindRequest(pod.namespace(), pod.name(), pod.uid(), node)));
    }

    /** The refusal's text ("" when bound). */
    private static String error(BindOutcome outcome) {
        return outcome instanceof BindOutcome.Refused refused ? refused.message() : "";
    }

    /** An informer cache stuck before the binding: the pod unbound, every node present (DecisionThreadsTest too). */
    static ClusterCache cacheShowing(PodSpec pod) {
        return cache(Optional.of(observed(pod)));
    }

    private static ObservedPod observed(PodSpec pod) {
        return new ObservedPod(pod, "Pending", false, false, "1");
    }

    /** An informer cache that has not seen the pod yet; every node present. */
    private static ClusterCache emptyCache() {
        return cache(Optional.empty());
    }

    private static ClusterCache cache(Optional<ObservedPod> pod) {
        return cache(pod, true, true);
    }

    /** An informer cache showing {@code pod}, every node or none, synced or not. */
    private static ClusterCache cache(Optional<ObservedPod> pod, boolean everyNode, boolean synced) {
        return new ClusterCache() {
            @Override
            public Optional<ObservedPod> pod(String namespace, String name) {
                return pod;
            }

            @Override
            public Optional<NodeObservation> node(String name) {
                return everyNode ? Optional.of(new NodeObservation(name, Map.of(), 1, "1")) : Optional.empty();
            }

            @Override
            public Collection<NodeObservation> nodes() {
                return List.of();
            }

            @Override
            public Collection<ObservedPod> pods() {
                return pod.map(List::of).orElse(List.of());
            }

            @Override
            public boolean hasSynced() {
                return synced;
            }
        };
    }

    /** Counts the writes; answers the live read with {@link #liveNode}. */
    private static final class RecordingWrites implements PodWriter {
        /** The live read answers this pod, bound to this node ("" = unbound); null: the read finds nothing. */
        private PodSpec livePod;
        /** With no live pod: the read failed (the pod may exist), rather than found the pod gone. */
        private boolean unreadable;
        private String liveNode = "";
        private int bindPhases;
        private int bindings;
        private BindingOutcome bindingAnswer = new BindingOutcome.Bound(false);

        @Override
        public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                    Map<String, String> labels) {
            return CompletableFuture.completedFuture(new WriteOutcome.Written());
        }

        @Override
        public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
            bindPhases++;
            return CompletableFuture.completedFuture(new WriteOutcome.Written());
        }

        @Override
        public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
            bindings++;
            return CompletableFuture.completedFuture(bindingAnswer);
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(livePod == null && !unreadable);
        }

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            if (livePod == null) {
                return CompletableFuture.completedFuture(Optional.empty());
            }
            PodSpec bound = new PodSpec(livePod.name(), livePod.namespace(), livePod.uid(), livePod.schedulerName(),
                    liveNode, livePod.runtimeClassName(), livePod.annotations(), livePod.labels(),
                    livePod.initContainers(), livePod.containers());
            return CompletableFuture.completedFuture(Optional.of(new ObservedPod(bound, "Pending", false, false,
                    "2")));
        }
    }
}
