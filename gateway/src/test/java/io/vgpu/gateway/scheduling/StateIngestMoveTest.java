package io.vgpu.gateway.scheduling;

import com.hazelcast.config.Config;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.PodWriter;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.PodDevicesCodec;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.NodeState;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.PodRef;
import io.vgpu.state.store.HazelcastClusterState;
import io.vgpu.state.store.HazelcastMemberConfig;
import io.vgpu.state.store.StoreConfig;
import io.vgpu.state.model.fixtures.GpuFixtures;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod whose {@code hami.io/vgpu-node} moves is charged once (issue 10 item 1; HAMi keeps one entry per pod UID):
 * two replicas, each a real embedded Hazelcast member with its own {@link StateIngest}, both fed every pod event as
 * their informers would be; the old and the new node are owned by different replicas, so the move crosses owners.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StateIngestMoveTest {

    /** Kept in a field: java.util.logging holds loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    private final Map<String, ObservedPod> api = new ConcurrentHashMap<>();
    private final List<HazelcastClusterState> replicas = new ArrayList<>();
    private final List<StateIngest> ingests = new ArrayList<>();
    private String nodeA;
    private String nodeB;

    @BeforeAll
    void startTwoReplicas() {
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
        eventually("two members, cluster safe", () -> replicas.stream().allMatch(r ->
                r.member().getCluster().getMembers().size() == 2 && r.member().getPartitionService().isClusterSafe()));
        replicas.forEach(r -> await(r.ready()));
        nodeA = ownedBy(0);
        nodeB = ownedBy(1);
        await(replicas.get(0).registerNode(new NodeInventory(nodeA, List.of(gpu(nodeA)), Map.of(), Map.of())));
        await(replicas.get(0).registerNode(new NodeInventory(nodeB, List.of(gpu(nodeB)), Map.of(), Map.of())));
    }

    @AfterAll
    void stop() {
        replicas.forEach(r -> r.member().getLifecycleService().terminate());
    }

    @Test
    void aPodWhoseNodeAnnotationMovesIsChargedOnTheNewNodeOnly() {
        ObservedPod onA = boundPod("moved", nodeA);
        observe(onA);
        eventually("charged on A, the pod index on A", () -> boundCharge(nodeA, onA) && indexed(onA, nodeA));

        // any later update of the annotation (here without a filter: nothing else moves the pod index)
        observe(boundPod("moved", nodeB));

        eventually("charged on B only, in every replica's view", () -> replicas.stream().allMatch(r ->
                charge(r, nodeB, onA) instanceof PodCharge.Bound && charge(r, nodeA, onA) == null));
    }

    @Test
    void aLateObservationOfTheOldNodeIsNotRecordedAfterAFilterMovedThePod() {
        ObservedPod onA = boundPod("late", nodeA);
        observe(onA);
        eventually("charged on A", () -> boundCharge(nodeA, onA) && indexed(onA, nodeA));
        // the bind on A failed; kube-scheduler filtered again: B reserved (the index follows), A released, B annotated
        HazelcastClusterState filter = replicas.get(1);
        long now = System.currentTimeMillis();
        await(filter.reserve(nodeB, ref(onA), allocation(nodeB), now, now + 60_000));
        await(filter.release(nodeA, onA.spec().uid()));
        api.put(onA.spec().uid(), boundPod("late", nodeB));
        eventually("the pod index on B", () -> indexed(onA, nodeB));

        // A's owner sees the pod's old version only now (its watch lags)
        await(ingests.get(0).ingestPod(onA));

        NodeState authoritative = replicas.get(0).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP)
                .get(nodeA);
        assertThat(authoritative.charge(onA.spec().uid())).as("a late observation re-charges the old node").isNull();
        eventually("B's reservation kept", () -> charge(replicas.get(0), nodeB, onA) instanceof PodCharge.Reserved);
    }

    @Test
    void aLateObservationOfAPodThatIsGoneChargesNothing() {
        ObservedPod onA = boundPod("gone", nodeA);
        HazelcastClusterState filter = replicas.get(1);
        long now = System.currentTimeMillis();
        // filtered onto B (the pod index follows), then deleted before A's owner saw its older version
        await(filter.reserve(nodeB, ref(onA), allocation(nodeB), now, now + 60_000));
        eventually("the pod index on B", () -> indexed(onA, nodeB));
        api.remove(onA.spec().uid());

        await(ingests.get(0).ingestPod(onA));

        NodeState authoritative = replicas.get(0).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP)
                .get(nodeA);
        assertThat(authoritative.charge(onA.spec().uid())).as("a deleted pod re-charged by a late event").isNull();
        eventually("nothing left on B either", () -> charge(replicas.get(1), nodeB, onA) == null);
    }

    /**
     * The CI chaos run on a560f59 (pod p-670, every replica's view: Bound on chaos-node-3, bound to chaos-node-0, for
     * over 20 s): the bind on A failed after {@code bind-phase=allocating}, the pod was filtered onto B, bound there,
     * ran and was deleted, and B's owner released it, which emptied the pod index. A's owner, whose watch lags, sees
     * the pod's version annotated for A only then: with no index entry to compare, it must ask the API server before
     * charging A (the pod is gone), or A holds a charge nobody releases until the periodic repair.
     */
    @Test
    void aLateObservationAfterThePodWasReleasedElsewhereChargesNothing() {
        ObservedPod onA = boundPod("released", nodeA);
        ObservedPod onB = bindingLanded(boundPod("released", nodeB), nodeB);
        api.put(onB.spec().uid(), onB);
        await(ingests.get(1).ingestPod(onB));
        eventually("charged on B, the pod index on B", () -> boundCharge(nodeB, onB) && indexed(onB, nodeB));
        api.remove(onB.spec().uid());
        ingests.get(1).podDeleted(onB);
        eventually("released on B, the pod index empty", () -> charge(replicas.get(1), nodeB, onB) == null
                && await(replicas.get(0).podNode(onB.spec().uid())).isEmpty());

        await(ingests.get(0).ingestPod(onA));

        NodeState authoritative = replicas.get(0).member().<String, NodeState>getMap(HazelcastMemberConfig.NODE_MAP)
                .get(nodeA);
        assertThat(authoritative.charge(onA.spec().uid())).as("a deleted pod re-charged by a late event").isNull();
    }

    /** A pod whose Binding was not made yet is charged where the live pod says once it is read (a re-list). */
    @Test
    void aFirstObservationOfAPodWhoseBindingIsNotMadeIsChargedWhereTheLivePodSays() {
        ObservedPod onA = boundPod("unbound", nodeA);
        api.put(onA.spec().uid(), onA);

        await(ingests.get(0).ingestPod(onA));

        eventually("charged on A", () -> boundCharge(nodeA, onA) && indexed(onA, nodeA));
    }

    @Test
    void theRepairReleasesAChargeLeftOnANodeThePodNoLongerNames() {
        ObservedPod onB = boundPod("left", nodeB);
        api.put(onB.spec().uid(), onB);
        // a move whose release failed: the pod is on B (charged there), its old charge on A is still there
        await(replicas.get(0).observeBound(nodeA, ref(onB), allocation(nodeA)));
        await(replicas.get(1).observeBound(nodeB, ref(onB), allocation(nodeB)));
        ListedCache cache = new ListedCache(List.of(), List.of(onB));

        for (int i = 0; i < replicas.size(); i++) {
            await(ingests.get(i).releaseVanished(replicas.get(i)::ownsNode, cache));
        }

        eventually("charged on B only", () -> replicas.stream().allMatch(r ->
                charge(r, nodeA, onB) == null && charge(r, nodeB, onB) instanceof PodCharge.Bound));
    }

    // ------------------------------------------------------------------ fixtures

    /** The pod as the API server has it now, and as both replicas' informers deliver it. */
    private void observe(ObservedPod pod) {
        api.put(pod.spec().uid(), pod);
        ingests.forEach(i -> await(i.ingestPod(pod)));
    }

    private boolean boundCharge(String node, ObservedPod pod) {
        return replicas.stream().allMatch(r -> charge(r, node, pod) instanceof PodCharge.Bound);
    }

    private boolean indexed(ObservedPod pod, String node) {
        return await(replicas.get(0).podNode(pod.spec().uid())).equals(Optional.of(node));
    }

    private static PodCharge charge(HazelcastClusterState replica, String node, ObservedPod pod) {
        NodeState state = replica.nodeState(node);
        return state == null ? null : state.charge(pod.spec().uid());
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

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("stage did not complete: " + e, e);
        }
    }

    private static void eventually(String what, BooleanSupplier condition) {
        Eventually.within(Duration.ofSeconds(20), what, condition);
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
