package io.vgpu.gateway.scheduling;

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
import io.vgpu.state.model.NodeInventory;
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The periodic nets put a bounded number of store calls in flight: a resync's reads of the keys as stored, and the
 * nets' forced registrations (replicas started together fired ~1,000 of each at once, queued on the partition
 * threads ahead of the decisions). The store here answers only when the test lets it, oldest call first.
 */
class NetPaceTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(8000).type("NVIDIA A100").build();
    private static final int NODES = 100;

    private final InMemoryClusterState state = new InMemoryClusterState();

    @Test
    void aResyncOfManyNodesKeepsAtMostSixteenStoredReadsInFlightAndStillChargesEverything() {
        List<NodeObservation> nodes = new ArrayList<>();
        List<ObservedPod> pods = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add(registered("n" + i, GPU));
            pods.add(boundPod("p" + i, "n" + i));
        }
        Held store = new Held(state, "readStoredNode");
        StateIngest ingest = ingest(store.proxy(), pods);
        ListedCache cache = new ListedCache(nodes, pods);

        CompletionStage<Void> resync = ingest.resync(name -> true, cache);
        store.drain();

        assertThat(resync.toCompletableFuture()).isCompleted();
        assertThat(store.calls).as("a read to re-ingest each node's pods, one to look for vanished pods")
                .isEqualTo(2 * NODES);
        assertThat(store.maxInFlight).isEqualTo(StoredReads.IN_FLIGHT);
        for (int i = 0; i < NODES; i++) {
            assertThat(state.nodeState("n" + i).registered()).as("n%d registered after its pod", i).isTrue();
            assertThat(state.nodeState("n" + i).charge("uid-p" + i)).isInstanceOf(PodCharge.Bound.class);
        }
    }

    @Test
    void theRedeliveryOfManyNodesKeepsAtMostSixteenRegistrationsInFlightAndWritesEveryOne() {
        List<NodeObservation> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add(registered("n" + i, GPU));
            state.registerNode(Recorded.inventory(nodes.get(i)).orElseThrow());
        }
        Held store = new Held(state, "registerNode");
        StateIngest ingest = ingest(store.proxy(), List.of());

        // the 15 s net (IngestRepair), through the replica's fan-out
        nodes.forEach(ClusterEvents.fanOut(List.of(ingest))::nodeRedelivered);
        assertThat(store.inFlight).isEqualTo(NetDeliveries.IN_FLIGHT);
        store.drain();

        assertThat(store.calls).as("a redelivery writes every node, unchanged or not").isEqualTo(NODES);
        assertThat(store.maxInFlight).isEqualTo(NetDeliveries.IN_FLIGHT);
    }

    @Test
    void aQueuedRedeliveryWritesTheNodeAsObservedLastAndNoneOfADeletedNode() {
        List<NodeObservation> nodes = new ArrayList<>();
        for (int i = 0; i < NetDeliveries.IN_FLIGHT + 2; i++) {
            nodes.add(registered("n" + i, GPU));
            state.registerNode(Recorded.inventory(nodes.get(i)).orElseThrow());
        }
        Held store = new Held(state, "registerNode");
        StateIngest ingest = ingest(store.proxy(), List.of());
        nodes.forEach(ingest::nodeRedelivered);
        String changed = "n" + NetDeliveries.IN_FLIGHT;
        String deleted = "n" + (NetDeliveries.IN_FLIGHT + 1);
        GpuDevice bigger = GpuFixtures.card("GPU-0").memMiB(16000).type("NVIDIA A100").build();

        // while their redeliveries are queued: a new inventory's event (written at once), a delete
        ingest.nodeUpserted(registered(changed, bigger));
        ingest.nodeDeleted(registered(deleted, GPU));
        store.drain();

        assertThat(state.nodeState(changed).devices().get(0).devmem()).as("not overwritten by the older observation")
                .isEqualTo(16000);
        assertThat(state.nodeState(deleted)).as("not registered again").isNull();
        ListedCache after = new ListedCache(List.of(), List.of());
        ingest.registerAwaiting(after);
        assertThat(after.syncChecks()).as("nor left awaiting its first registration: no resync of it").isZero();
    }

    // ------------------------------------------------------------------ fixtures

    private static StateIngest ingest(ClusterState store, List<ObservedPod> live) {
        ReadsOnly api = new ReadsOnly() {
            @Override
            public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
                return CompletableFuture.completedFuture(live.stream().filter(p -> p.key().equals(pod)).findFirst());
            }

            @Override
            public CompletionStage<Boolean> isGone(PodAddress pod) {
                return CompletableFuture.completedFuture(false);
            }
        };
        return new StateIngest(store, NodeHealth.ALWAYS, api, LockFixtures.observing(store, CLOCK));
    }

    private static NodeObservation registered(String name, GpuDevice gpu) {
        return new NodeObservation(name, Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
                NodeRegisterCodec.encode(List.of(gpu))), 1, "1");
    }

    private static ObservedPod boundPod(String name, String node) {
        PodAllocation allocation = new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-0", "NVIDIA", 1000,
                10))), 0);
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, node,
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation.containers()),
                HamiAnnotations.BIND_PHASE, "success");
        PodSpec spec = new PodSpec(name, "ns", "uid-" + name, "hami-scheduler", node, null, annotations, Map.of(),
                List.of(), List.of());
        return new ObservedPod(spec, "Running", false, true, "1");
    }

    /** A store whose calls of one method wait until {@link #drain} runs them, oldest first, one at a time. */
    private static final class Held {

        private final ClusterState target;
        private final String method;
        private final Queue<Runnable> waiting = new ArrayDeque<>();
        int calls;
        int inFlight;
        int maxInFlight;

        Held(ClusterState target, String method) {
            this.target = target;
            this.method = method;
        }

        ClusterState proxy() {
            return (ClusterState) Proxy.newProxyInstance(NetPaceTest.class.getClassLoader(),
                    new Class<?>[] {ClusterState.class}, (proxy, m, args) -> {
                        if (!m.getName().equals(method)) {
                            return call(m, args);
                        }
                        calls++;
                        maxInFlight = Math.max(maxInFlight, ++inFlight);
                        CompletableFuture<Object> answer = new CompletableFuture<>();
                        waiting.add(() -> {
                            inFlight--;
                            try {
                                ((CompletionStage<?>) call(m, args)).whenComplete((r, e) -> {
                                    if (e != null) {
                                        answer.completeExceptionally(e);
                                    } else {
                                        answer.complete(r);
                                    }
                                });
                            } catch (Throwable e) {
                                answer.completeExceptionally(e);
                            }
                        });
                        return answer;
                    });
        }

        /** Answers held calls, oldest first, until none is held (the answers start further calls). */
        void drain() {
            for (Runnable next = waiting.poll(); next != null; next = waiting.poll()) {
                next.run();
            }
        }

        private Object call(Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
