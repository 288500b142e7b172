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
import io.vgpu.state.model.PodAllocation;
import io.vgpu.state.model.PodCharge;
import io.vgpu.state.model.fixtures.GpuFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resync compares the stored charges with the informer cache and reads live only the pods whose charge is missing.
 * Right after the first list, the charges the list's events asked for are still on their way to the store: a resync
 * that ran ahead of them read every such pod live (21,769 reads in the fan-out benchmark row at 100 pods per node,
 * queued in front of the decisions' API calls). It waits for them first.
 */
@ExtendWith(VertxExtension.class)
class ResyncAfterIngestTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final GpuDevice GPU = GpuFixtures.card("GPU-0").memMiB(80000).type("NVIDIA A100").build();
    private static final int PODS = 40;

    private final InMemoryClusterState state = new InMemoryClusterState();
    /** The store answers the listed pods' charges only when the test says so (a busy partition thread). */
    private final List<Runnable> heldCharges = new ArrayList<>();
    private final ClusterState slowCharges = holdingObserveBound(state, heldCharges);
    private final AtomicInteger liveReads = new AtomicInteger();

    @Test
    void aResyncRightAfterTheFirstListReadsNoPodLiveWhoseChargeWasAlreadyOnItsWay(VertxTestContext ctx) {
        state.registerNode(inventory());
        List<ObservedPod> pods = boundPods();
        StateIngest ingest = new StateIngest(slowCharges, NodeHealth.ALWAYS, new CountingReads(pods, liveReads),
                LockFixtures.observing(slowCharges, CLOCK));
        pods.forEach(ingest::podAdded);  // the first list
        assertThat(heldCharges).as("every listed pod's charge is on its way").hasSize(PODS);

        CompletionStage<Void> resync = ingest.resync("n1"::equals, new ListedCache(List.of(registered()), pods));
        assertThat(resync.toCompletableFuture()).as("it waits for the charges").isNotDone();
        List.copyOf(heldCharges).forEach(Runnable::run);

        finish(ctx, step(resync), done -> {
            assertThat(state.nodeState("n1").charges()).hasSize(PODS);
            assertThat(state.nodeState("n1").charge("uid-p0")).isInstanceOf(PodCharge.Bound.class);
            assertThat(liveReads.get()).as("no pod read live").isZero();
        });
    }

    /**
     * {@link StateIngest#backlog} (the {@code vgpu_ingest_backlog} gauge, and what the heap benchmark waits on)
     * counts the listed pods' charges on their way to the store, and then a resync's live reads of pods whose charge
     * is missing, queued behind the reads' window or in flight, until each is applied.
     */
    @Test
    void theBacklogCountsChargesOnTheirWayAndQueuedLiveReadsUntilTheyAreApplied(VertxTestContext ctx) {
        state.registerNode(inventory());
        List<ObservedPod> pods = boundPods();
        List<Runnable> heldReads = new ArrayList<>();
        StateIngest listed = new StateIngest(slowCharges, NodeHealth.ALWAYS, new CountingReads(pods, liveReads),
                LockFixtures.observing(slowCharges, CLOCK));
        assertThat(listed.backlog()).isZero();
        pods.forEach(listed::podAdded);
        assertThat(listed.backlog()).as("the listed pods' charges on their way").isEqualTo(PODS);
        List.copyOf(heldCharges).forEach(Runnable::run);
        assertThat(listed.backlog()).as("applied").isZero();

        // another replica's resync of the key it took over: no charge stored there, every pod read live first
        InMemoryClusterState empty = new InMemoryClusterState();
        empty.registerNode(inventory());
        StateIngest takingOver = new StateIngest(empty, NodeHealth.ALWAYS, new HeldReads(pods, heldReads),
                LockFixtures.observing(empty, CLOCK));
        CompletionStage<Void> resync = takingOver.resync("n1"::equals, new ListedCache(List.of(registered()), pods));
        assertThat(heldReads).as("reads in flight, the rest queued").hasSize(LiveReads.IN_FLIGHT);
        assertThat(takingOver.backlog()).as("every pod's live read, in flight or queued").isEqualTo(PODS);
        while (!heldReads.isEmpty()) {
            List<Runnable> now = List.copyOf(heldReads);
            heldReads.clear();
            now.forEach(Runnable::run);
        }
        finish(ctx, step(resync), done -> {
            assertThat(empty.nodeState("n1").charges()).as("charged after the reads").hasSize(PODS);
            assertThat(takingOver.backlog()).as("drained").isZero();
        });
    }

    private static NodeInventory inventory() {
        return new NodeInventory("n1", List.of(GPU), Map.of(), Map.of());
    }

    private static List<ObservedPod> boundPods() {
        List<ObservedPod> pods = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            pods.add(boundPod("p" + i));
        }
        return pods;
    }

    /** What the API server answers for {@code pod}: the listed pod of that address, if any. */
    private static Optional<ObservedPod> listed(List<ObservedPod> pods, PodAddress pod) {
        return pods.stream().filter(p -> p.key().equals(pod)).findFirst();
    }

    private static NodeObservation registered() {
        return new NodeObservation("n1", Map.of(HamiAnnotations.NODE_NVIDIA_REGISTER,
                NodeRegisterCodec.encode(List.of(GPU))), 1, "1");
    }

    private static ObservedPod boundPod(String name) {
        PodAllocation allocation = new PodAllocation(List.of(List.of(new ContainerDevice(0, "GPU-0", "NVIDIA", 1000,
                1))), 0);
        Map<String, String> annotations = Map.of(HamiAnnotations.VGPU_NODE, "n1",
                HamiAnnotations.DEVICES_ALLOCATED, PodDevicesCodec.encode(allocation.containers()),
                HamiAnnotations.BIND_PHASE, "success");
        PodSpec spec = new PodSpec(name, "ns", "uid-" + name, "hami-scheduler", "n1", null, annotations, Map.of(),
                List.of(), List.of());
        return new ObservedPod(spec, "Running", false, true, "1");
    }

    /** Delegates to {@code target}; each observeBound completes only when its runnable in {@code held} runs. */
    private static ClusterState holdingObserveBound(ClusterState target, List<Runnable> held) {
        return (ClusterState) Proxy.newProxyInstance(ResyncAfterIngestTest.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("observeBound")) {
                        CompletableFuture<Object> answer = new CompletableFuture<>();
                        held.add(() -> ((CompletionStage<?>) invoke(target, method, args))
                                .whenComplete((r, e) -> answer.complete(r)));
                        return answer;
                    }
                    return invoke(target, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The API server: every listed pod is there, bound; each read answers only when its runnable in held runs. */
    private record HeldReads(List<ObservedPod> pods, List<Runnable> held) implements ReadsOnly {

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            CompletableFuture<Optional<ObservedPod>> answer = new CompletableFuture<>();
            held.add(() -> answer.complete(listed(pods, pod)));
            return answer;
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(false);
        }
    }

    /** The API server: every listed pod is there, bound; each read is counted. */
    private record CountingReads(List<ObservedPod> pods, AtomicInteger reads) implements ReadsOnly {

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(listed(pods, pod));
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            return CompletableFuture.completedFuture(false);
        }
    }
}
