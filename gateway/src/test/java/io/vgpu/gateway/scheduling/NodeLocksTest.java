package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.NodeHealth;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.NodeLockCodec;
import io.vgpu.state.codec.NodeRegisterCodec;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.NodeLockHolder;
import io.vgpu.state.model.NodeState;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link NodeLocks} releases the shared node lock when the node's lock annotation goes away (told by ingest), or when
 * none appeared within the grace (the sweep).
 */
class NodeLocksTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-01T06:00:00Z"), ZoneOffset.UTC);
    private static final Node NODE = new Node("node-0", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
            NodeRegisterCodec.encode(List.of(FilterFixtures.card("GPU-0", 0, 15360, "T4"),
                    FilterFixtures.card("GPU-1", 1, 15360, "T4")))));

    private final InMemoryClusterState state = new InMemoryClusterState();

    @Test
    void releasesTheLockNamedByTheVanishedAnnotationWhileTheLocalSnapshotStillLags() {
        ClusterState lagging = laggingSnapshot(state);
        StateIngest ingest = new StateIngest(lagging, NodeHealth.ALWAYS, new AcceptingPodWriter(),
                LockFixtures.observing(lagging, CLOCK));
        state.registerNode(Recorded.inventory(node(null)).orElseThrow());
        ingest.nodeUpserted(node(null));
        state.lockNode(NODE.name(), "ns", "pod-a", CLOCK.millis(), 300_000);

        ingest.nodeUpserted(node(lockOf("ns", "pod-a")));
        ingest.nodeUpserted(node(null));

        assertThat(state.nodeState(NODE.name()).lock()).isNull();
    }

    @Test
    void leavesALockThatAnotherPodTookMeanwhile() {
        NodeLocks locks = LockFixtures.observing(state, CLOCK);
        state.registerNode(Recorded.inventory(node(null)).orElseThrow());
        locks.observed(node(null), true);
        state.lockNode(NODE.name(), "ns", "pod-b", CLOCK.millis(), 300_000);

        locks.observed(node(lockOf("ns", "pod-a")), true);
        locks.observed(node(null), true);

        assertThat(state.nodeState(NODE.name()).lock()).isEqualTo(new NodeLockHolder("ns", "pod-b", CLOCK.millis()));
    }

    @Test
    void keepsAFreshLockWhoseAnnotationWasNeverSeen() {
        NodeLocks locks = LockFixtures.observing(state, CLOCK);
        state.registerNode(Recorded.inventory(node(null)).orElseThrow());
        locks.observed(node(null), true);
        state.lockNode(NODE.name(), "ns", "pod-a", CLOCK.millis(), 300_000);

        locks.observed(node(null), true);

        assertThat(state.nodeState(NODE.name()).lock()).isNotNull();
    }

    @Test
    void theOwnerReleasesALockWhoseAnnotationNeverAppearedWithinTheGraceEvenWithoutANodeEvent() {
        NodeLocks locks = LockFixtures.observing(state, CLOCK);
        state.registerNode(Recorded.inventory(node(null)).orElseThrow());
        locks.observed(node(null), true);
        // a lock call that applied although its caller saw it fail: nobody will write the annotation or unlock
        state.lockNode(NODE.name(), "ns", "pod-a", CLOCK.millis() - NodeLocks.GRACE_MILLIS - 1, 300_000);

        locks.sweep(name -> false);
        assertThat(state.nodeState(NODE.name()).lock()).as("only the key's owner acts").isNotNull();

        locks.sweep(name -> true);
        assertThat(state.nodeState(NODE.name()).lock()).isNull();
    }

    @Test
    void thePeriodicReleaseLeavesLocksWithinTheGraceAndLocksWhoseAnnotationIsThere() {
        NodeLocks locks = LockFixtures.observing(state, CLOCK);
        state.registerNode(Recorded.inventory(node(null)).orElseThrow());
        locks.observed(node(null), true);
        state.lockNode(NODE.name(), "ns", "pod-a", CLOCK.millis() - NodeLocks.GRACE_MILLIS, 300_000);

        locks.sweep(name -> true);
        assertThat(state.nodeState(NODE.name()).lock()).as("within the grace").isNotNull();

        state.unlockNode(NODE.name(), "ns", "pod-a");
        state.lockNode(NODE.name(), "ns", "pod-b", CLOCK.millis() - 60_000, 300_000);
        locks.observed(node(lockOf("ns", "pod-b")), true);
        locks.sweep(name -> true);
        assertThat(state.nodeState(NODE.name()).lock()).as("annotated").isNotNull();
    }

    private static String lockOf(String namespace, String name) {
        return NodeLockCodec.value(CLOCK.instant(), ZoneOffset.UTC, namespace, name);
    }

    private static NodeObservation node(String lock) {
        Map<String, String> annotations = new HashMap<>(NODE.annotations());
        if (lock != null) {
            annotations.put(HamiAnnotations.NODE_LOCK, lock);
        }
        return new NodeObservation(NODE.name(), annotations, 20, lock == null ? "1" : "2");
    }

    /** The state, except that its local snapshot has not seen any node lock yet (listener events trail). */
    private static ClusterState laggingSnapshot(ClusterState state) {
        return (ClusterState) Proxy.newProxyInstance(ClusterState.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(state, args);
                        return result instanceof NodeState s ? new NodeState(s.name(), s.registered(), s.devices(),
                                s.annotations(), s.pairScores(), s.charges(), null) : result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A registered node with two cards, as the device plugin announces it. */
    private record Node(String name, Map<String, String> annotations) {
    }
}
