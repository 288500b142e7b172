package io.vgpu.gateway.scheduling;

import com.hazelcast.config.Config;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.gateway.testflow.TestFlow;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod whose {@code hami.io/vgpu-node} moves is charged once (issue 10 item 1; HAMi keeps one entry per pod UID):
 * two replicas, each a real embedded Hazelcast member with its own {@link StateIngest}, both fed every pod event as
 * their informers would be; the old and the new node are owned by different replicas, so the move crosses owners.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StateIngestMoveTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    private final Map<String, ObservedPod> api = new ConcurrentHashMap<>();
    private final List<HazelcastClusterState> replicas = new ArrayList<>();
    private final List<StateIngest> ingests = new ArrayList<>();
    private Vertx vertx;
    private String nodeA;
    private String nodeB;

    @BeforeAll
    void startTwoReplicas(Vertx vertx, VertxTestContext ctx) {
        this.vertx = vertx;
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        int port = freePort();
        StoreConfig store = new StoreConfig("vgpu-move-" + UUID.randomUUID(),
                List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2)), "127.0.0.1", port,
                1, 0, 7);
        for (int i = 0; i < 2; i++) {
            Config member = HazelcastMemberConfig.build(store);
            member.setProperty("hazelcast.logging.type", "jdk");
            member.setProperty("hazelcast.wait.seconds.before.join", "1");
            member.setProperty("hazelcast.max.wait.seconds.before.join", "2");
            HazelcastClusterState state = HazelcastClusterState.start(member);
            replicas.add(state);
            ingests.add(new StateIngest(state, NodeHealth.ALWAYS, new LiveReads(),
                    LockFixtures.observing(state, Clock.systemUTC())));
        }
        Future<Void> started = holds("two members, cluster safe", () -> replicas.stream().allMatch(r ->
                r.member().getCluster().getMembers().size() == 2 && r.member().getPartitionService().isClusterSafe()))
                .compose(safe -> Future.all(replicas.stream().map(r -> step(r.ready())).toList()))
                .compose(ready -> {
                    nodeA = ownedBy(0);
                    nodeB = ownedBy(1);
                    return step(replicas.get(0).registerNode(new NodeInventory(nodeA, List.of(gpu(nodeA)), Map.of(),
                            Map.of())));
                })
                .compose(a -> step(replicas.get(0).registerNode(new NodeInventory(nodeB, List.of(gpu(nodeB)),
                        Map.of(), Map.of()))))
                .mapEmpty();
        finish(ctx, started, registered -> { });
    }

    @AfterAll
    void stop() {
        replicas.forEach(r -> r.member().getLifecycleService().terminate());
    }

    @Test
    void aPodWhoseNodeAnnotationMovesIsChargedOnTheNewNodeOnly(VertxTestContext ctx) {
        ObservedPod onA = boundPod("moved", nodeA);
        Future<Void> moved = observe(onA)
                .compose(v -> eventually("charged on A, the pod index on A",
                        () -> indexed(onA, nodeA).map(indexed -> indexed && boundCharge(nodeA, onA))))
                // any later update of the annotation (here without a filter: nothing else moves the pod index)
                .compose(v -> observe(boundPod("moved", nodeB)))
                .compose(v -> holds("charged on B only, in its owner's copy", () ->
                        charge(nodeB, onA) instanceof PodCharge.Bound && charge(nodeA, onA) == null));

        finish(ctx, moved, v -> { });
    }

    @Test
    void aLateObservationOfTheOldNodeIsNotRecordedAfterAFilterMovedThePod(VertxTestContext ctx) {
        ObservedPod onA = boundPod("late", nodeA);
        // the bind on A failed; kube-scheduler filtered again: B reserved (the index follows), A released, B annotated
        HazelcastClusterState filter = replicas.get(1);
        Future<NodeState> late = observe(onA)
                .compose(v -> eventually("charged on A",
                        () -> indexed(onA, nodeA).map(indexed -> indexed && boundCharge(nodeA, onA))))
                .compose(v -> {
                    long now = System.currentTimeMillis();
                    return onLoop(filter.reserve(nodeB, ref(onA), allocation(nodeB), now, now + 60_000));
                })
                .compose(reserved -> step(filter.release(nodeA, onA.spec().uid())))
                .compose(released -> {
                    api.put(onA.spec().uid(), boundPod("late", nodeB));
                    return eventually("the pod index on B", () -> indexed(onA, nodeB));
                })
                // A's owner sees the pod's old version only now (its watch lags)
                .compose(v -> step(ingests.get(0).ingestPod(onA)))
                .compose(v -> authoritative(nodeA))
                .compose(authoritative -> {
                    assertThat(authoritative.charge(onA.spec().uid())).as("a late observation re-charges the old node")
                            .isNull();
                    return holds("B's reservation kept",
                            () -> charge(nodeB, onA) instanceof PodCharge.Reserved).map(authoritative);
                });

        finish(ctx, late, v -> { });
    }

    @Test
    void aLateObservationOfAPodThatIsGoneChargesNothing(VertxTestContext ctx) {
        ObservedPod onA = boundPod("gone", nodeA);
        HazelcastClusterState filter = replicas.get(1);
        long now = System.currentTimeMillis();
        // filtered onto B (the pod index follows), then deleted before A's owner saw its older version
        Future<Void> gone = onLoop(filter.reserve(nodeB, ref(onA), allocation(nodeB), now, now + 60_000))
                .compose(reserved -> eventually("the pod index on B", () -> indexed(onA, nodeB)))
                .compose(v -> {
                    api.remove(onA.spec().uid());
                    return step(ingests.get(0).ingestPod(onA));
                })
                .compose(v -> authoritative(nodeA))
                .compose(authoritative -> {
                    assertThat(authoritative.charge(onA.spec().uid())).as("a deleted pod re-charged by a late event")
                            .isNull();
                    return holds("nothing left on B either", () -> charge(nodeB, onA) == null);
                });

        finish(ctx, gone, v -> { });
    }

    /**
     * The CI chaos run on a560f59 (pod p-670, every replica's view: Bound on chaos-node-3, bound to chaos-node-0, for
     * over 20 s): the bind on A failed after {@code bind-phase=allocating}, the pod was filtered onto B, bound there,
     * ran and was deleted, and B's owner released it, which emptied the pod index. A's owner, whose watch lags, sees
     * the pod's version annotated for A only then: with no index entry to compare, it must ask the API server before
     * charging A (the pod is gone), or A holds a charge nobody releases until the periodic repair.
     */
    @Test
    void aLateObservationAfterThePodWasReleasedElsewhereChargesNothing(VertxTestContext ctx) {
        ObservedPod onA = boundPod("released", nodeA);
        ObservedPod onB = bindingLanded(boundPod("released", nodeB), nodeB);
        api.put(onB.spec().uid(), onB);
        Future<NodeState> late = step(ingests.get(1).ingestPod(onB))
                .compose(v -> eventually("charged on B, the pod index on B",
                        () -> indexed(onB, nodeB).map(indexed -> indexed && boundCharge(nodeB, onB))))
                .compose(v -> {
                    api.remove(onB.spec().uid());
                    ingests.get(1).podDeleted(onB);
                    return eventually("released on B, the pod index empty", () -> step(replicas.get(0)
                            .podNode(onB.spec().uid()))
                            .map(index -> index.isEmpty() && charge(nodeB, onB) == null));
                })
                .compose(v -> step(ingests.get(0).ingestPod(onA)))
                .compose(v -> authoritative(nodeA));

        finish(ctx, late, authoritative -> assertThat(authoritative.charge(onA.spec().uid()))
                .as("a deleted pod re-charged by a late event").isNull());
    }

    /** A pod whose Binding was not made yet is charged where the live pod says once it is read (a re-list). */
    @Test
    void aFirstObservationOfAPodWhoseBindingIsNotMadeIsChargedWhereTheLivePodSays(VertxTestContext ctx) {
        ObservedPod onA = boundPod("unbound", nodeA);
        api.put(onA.spec().uid(), onA);

        Future<Void> charged = step(ingests.get(0).ingestPod(onA))
                .compose(v -> eventually("charged on A",
                        () -> indexed(onA, nodeA).map(indexed -> indexed && boundCharge(nodeA, onA))));

        finish(ctx, charged, v -> { });
    }

    /**
     * The soak of 2026-12-07 (an over-commit on chaos-node-10 right after the restart of every replica): the pod's bind
     * to B stopped after {@code bind-phase=allocating} (its replica was killed), the restarted replicas charged it on
     * B, kube-scheduler filtered it onto A, and that reservation was released by a lagging observation. The filter's
     * patch leaves the old bind's phase in place: the version annotated for A, read live, must not be charged on A
     * as bound (a fact, past the capacity rule) while no bind of that decision has started.
     */
    @Test
    void aPodFilteredAgainAfterAnInterruptedBindIsNotChargedAsBoundByTheOldBindPhase(VertxTestContext ctx) {
        ObservedPod onB = decided(boundPod("refiltered", nodeB), nodeB, 1_000, 1_000);
        ObservedPod onA = decided(boundPod("refiltered", nodeA), nodeA, 1_030, 1_000);
        Future<NodeState> refiltered = observe(onB)
                .compose(v -> eventually("charged on B, the pod index on B",
                        () -> indexed(onB, nodeB).map(indexed -> indexed && boundCharge(nodeB, onB))))
                .compose(v -> observe(onA))
                .compose(v -> authoritative(nodeA));

        finish(ctx, refiltered, authoritative -> assertThat(authoritative.charge(onA.spec().uid()))
                .as("the new decision charged as bound by the interrupted bind's phase").isNull());
    }

    /** The bind of the decision itself has started (its bind-time is not older than the filter's): charged. */
    @Test
    void aPodWhoseBindStartedAfterItsDecisionIsChargedAsBound(VertxTestContext ctx) {
        ObservedPod onA = decided(boundPod("started", nodeA), nodeA, 1_030, 1_030);

        Future<Void> charged = observe(onA).compose(v -> eventually("charged on A",
                () -> indexed(onA, nodeA).map(indexed -> indexed && boundCharge(nodeA, onA))));

        finish(ctx, charged, v -> { });
    }

    @Test
    void theRepairReleasesAChargeLeftOnANodeThePodNoLongerNames(VertxTestContext ctx) {
        ObservedPod onB = boundPod("left", nodeB);
        api.put(onB.spec().uid(), onB);
        ListedCache cache = new ListedCache(List.of(), List.of(onB));
        // a move whose release failed: the pod is on B (charged there), its old charge on A is still there
        Future<Void> repaired = step(replicas.get(0).observeBound(nodeA, ref(onB), allocation(nodeA)))
                .compose(a -> step(replicas.get(1).observeBound(nodeB, ref(onB), allocation(nodeB))))
                .compose(b -> Future.all(List.of(
                        step(ingests.get(0).releaseVanished(replicas.get(0)::ownsNode, cache)),
                        step(ingests.get(1).releaseVanished(replicas.get(1)::ownsNode, cache)))))
                .compose(v -> holds("charged on B only", () ->
                        charge(nodeA, onB) == null && charge(nodeB, onB) instanceof PodCharge.Bound));

        finish(ctx, repaired, v -> { });
    }

    /**
     * The cache holds a newer pod of the same namespace and name (a StatefulSet's pod recreated) and the API server no
     * longer has the charged one: the old incarnation's charge is released, although a pod of its name is cached and
     * names the same node. The cache is looked up by name, so the UID decides whether it is this charge's pod.
     */
    @Test
    void theRepairReleasesAChargeWhoseNameNowBelongsToANewerIncarnation(VertxTestContext ctx) {
        ObservedPod old = boundPod("reborn", nodeA);
        ObservedPod newer = incarnation(boundPod("reborn", nodeA), "uid-reborn-2");
        api.put(newer.spec().uid(), newer);
        ListedCache cache = new ListedCache(List.of(), List.of(newer));
        Future<Void> repaired = step(replicas.get(0).observeBound(nodeA, ref(old), allocation(nodeA)))
                .compose(a -> holds("the old incarnation charged on A", () -> boundCharge(nodeA, old)))
                .compose(a -> Future.all(List.of(
                        step(ingests.get(0).releaseVanished(replicas.get(0)::ownsNode, cache)),
                        step(ingests.get(1).releaseVanished(replicas.get(1)::ownsNode, cache)))))
                .compose(v -> holds("the old incarnation's charge released", () -> charge(nodeA, old) == null));

        finish(ctx, repaired, v -> { });
    }

    // ------------------------------------------------------------------ fixtures

    /** The pod as the API server has it now, and as both replicas' informers deliver it. */
    private Future<Void> observe(ObservedPod pod) {
        api.put(pod.spec().uid(), pod);
        return Future.all(ingests.stream().map(i -> step(i.ingestPod(pod))).toList()).mapEmpty();
    }

    /** Node {@code node}'s value in the map itself (not a replica's snapshot). */
    private Future<NodeState> authoritative(String node) {
        return step(replicas.get(0).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP).getAsync(node));
    }

    private boolean boundCharge(String node, ObservedPod pod) {
        return charge(node, pod) instanceof PodCharge.Bound;
    }

    private Future<Boolean> indexed(ObservedPod pod, String node) {
        return step(replicas.get(0).podNode(pod.spec().uid())).map(index -> index.equals(Optional.of(node)));
    }

    private Future<Void> eventually(String what, Supplier<Future<Boolean>> condition) {
        return TestFlow.eventually(vertx, Duration.ofSeconds(20), what, condition);
    }

    /** {@link #eventually} for a condition on the replicas' local snapshots (no round trip). */
    private Future<Void> holds(String what, BooleanSupplier condition) {
        return eventually(what, () -> Future.succeededFuture(condition.getAsBoolean()));
    }

    /**
     * The pod's charge on {@code node} in the copy of the node key's owner (the only replica that holds the node's
     * full value; the others' {@code nodeState} is null).
     */
    private PodCharge charge(String node, ObservedPod pod) {
        for (HazelcastClusterState replica : replicas) {
            NodeState state = replica.ownsNode(node) ? replica.nodeState(node) : null;
            if (state != null) {
                return state.charge(pod.spec().uid());
            }
        }
        return null;
    }

    private String ownedBy(int replica) {
        for (int i = 0; ; i++) {
            String name = "node-" + i;
            if (replicas.get(replica).ownsNode(name)) {
                return name;
            }
        }
    }

    private static GpuDevice gpu(String node) {
        return GpuFixtures.card("GPU-" + node).memMiB(24_000).type("NVIDIA A100").build();
    }

    private static PodAllocation allocation(String node) {
        return new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-" + node, "NVIDIA", 4_000, 10))), 0);
    }

    private static PodRef ref(ObservedPod pod) {
        return new PodRef(pod.spec().uid(), pod.spec().namespace(), pod.spec().name());
    }

    /** A pod annotated for {@code node} whose bind has started ({@code bind-phase=allocating}): ingest charges it. */
    private static ObservedPod boundPod(String name, String node) {
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, node,
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation(node).containers()),
                HamiAnnotations.BIND_PHASE, "allocating");
        PodSpec spec = new PodSpec(name, "ns", "uid-" + name, "hami-scheduler", "", null, annotations, Map.of(),
                List.of(), List.of());
        return new ObservedPod(spec, "Pending", false, true, "1");
    }

    /** {@code pod} recreated under the same namespace and name with {@code uid}. */
    private static ObservedPod incarnation(ObservedPod pod, String uid) {
        PodSpec s = pod.spec();
        return new ObservedPod(new PodSpec(s.name(), s.namespace(), uid, s.schedulerName(), s.nodeName(),
                s.runtimeClassName(), s.annotations(), s.labels(), s.initContainers(), s.containers()), "Pending",
                false, true, "1");
    }

    /** {@code pod} as a filter decision for {@code node} at {@code vgpuTime} left it, its last bind at {@code bindTime}. */
    private static ObservedPod decided(ObservedPod pod, String node, long vgpuTime, long bindTime) {
        PodSpec s = pod.spec();
        Map<String, String> annotations = new HashMap<>(s.annotations());
        annotations.put(HamiAnnotations.VGPU_NODE, node);
        annotations.put(HamiAnnotations.VGPU_TIME, Long.toString(vgpuTime));
        annotations.put(HamiAnnotations.BIND_TIME, Long.toString(bindTime));
        return new ObservedPod(new PodSpec(s.name(), s.namespace(), s.uid(), s.schedulerName(), s.nodeName(),
                s.runtimeClassName(), annotations, s.labels(), s.initContainers(), s.containers()), "Pending", false,
                true, Long.toString(vgpuTime));
    }

    /** {@code pod} after its Binding to {@code node} landed ({@code spec.nodeName} set). */
    private static ObservedPod bindingLanded(ObservedPod pod, String node) {
        PodSpec s = pod.spec();
        return new ObservedPod(new PodSpec(s.name(), s.namespace(), s.uid(), s.schedulerName(), node,
                s.runtimeClassName(), s.annotations(), s.labels(), s.initContainers(), s.containers()), "Pending",
                false, true, "2");
    }

    /** The API server's side of the live reads: {@link #api}. */
    private final class LiveReads implements PodWriter {

        @Override
        public CompletionStage<WriteOutcome> patchFilterAnnotations(PodAddress pod, Map<String, String> annotations,
                                                                    Map<String, String> labels) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<WriteOutcome> patchBindPhase(PodAddress pod, String phase, long bindTimeSeconds) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<BindingOutcome> bind(PodAddress pod, String node) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            return CompletableFuture.completedFuture(Optional.ofNullable(api.get(pod.uid())));
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(!api.containsKey(pod.uid()));
        }
    }



    /**
     * A decision call's stage as a step that continues on an event loop, as the gateway's {@code Stages.onContext}
     * does: the store completes it on a Hazelcast thread, where a next step's remote call would be refused
     * ({@code IllegalThreadStateException}: a response thread cannot make remote calls).
     */
    private <T> Future<T> onLoop(CompletionStage<T> decision) {
        return Future.fromCompletionStage(decision, vertx.getOrCreateContext());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            int port = socket.getLocalPort();
            return port > 60_000 ? port - 5_000 : port;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
