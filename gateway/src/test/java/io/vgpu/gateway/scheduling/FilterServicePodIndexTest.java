package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.Container;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.filter.FilterConfig;
import io.vgpu.gateway.core.filter.FilterDecider;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.gateway.extender.ExtenderArgs;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.simulate.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import io.vgpu.state.model.GpuDevice;
import io.vgpu.state.model.NodeInventory;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod index (where a pod holds an earlier reservation) is a round trip to the shared state: a first filter, a pod
 * that no filter annotated yet, does not pay it; a pod a filter annotated is looked up and never competes with its own
 * earlier reservation.
 */
class FilterServicePodIndexTest {

    private final InMemoryClusterState state = new InMemoryClusterState();
    private final AtomicInteger lookups = new AtomicInteger();
    private final FilterService service;

    FilterServicePodIndexTest() {
        state.registerNode(new NodeInventory("node1", List.of(new GpuDevice("GPU-a", 0, 10, 24_000, 100,
                "NVIDIA A10", 0, "hami-core", List.of(), true)), Map.of(), Map.of()));
        service = new FilterService(new FilterDecider(FilterConfig.defaults()), countingPodNode(state),
                new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1), new AcceptingPodWriter(),
                EventSink.NONE, SchedulingConfig.DEFAULTS, Clock.systemUTC());
    }

    @Test
    void aPodNoFilterAnnotatedIsDecidedWithoutLookingUpTheIndex() throws Exception {
        assertThat(filter(pod(Map.of())).nodeNames()).containsExactly("node1");

        assertThat(lookups).hasValue(0);
    }

    @Test
    void anAnnotatedPodIsLookedUpAndDoesNotCompeteWithItsOwnReservation() throws Exception {
        assertThat(filter(pod(Map.of())).nodeNames()).containsExactly("node1");

        // kube-scheduler filters it again; its copy carries what the first filter wrote
        ExtenderFilterResult again = filter(pod(Map.of(HamiAnnotations.VGPU_NODE, "node1")));

        assertThat(again.nodeNames()).as("20,000 of 24,000 MiB are its own").containsExactly("node1");
        assertThat(lookups).hasValue(1);
    }

    @Test
    void withoutTheAnnotationItsEarlierReservationCountsAgainstItStricterNeverDouble() throws Exception {
        assertThat(filter(pod(Map.of())).nodeNames()).containsExactly("node1");

        ExtenderFilterResult again = filter(pod(Map.of()));

        assertThat(again.failedNodes()).containsKey("node1");
        assertThat(state.node("node1").devices().get(0).usedmem()).isEqualTo(20_000);
    }

    private ExtenderFilterResult filter(PodSpec pod) throws Exception {
        return service.filter(new ExtenderArgs(pod, List.of("node1"), null)).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private static PodSpec pod(Map<String, String> annotations) {
        return new PodSpec("p", "team", "uid-p", "hami-scheduler", "", null, annotations, Map.of(), List.of(),
                List.of(new Container("c", Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "20000"), Map.of(),
                        false, List.of())));
    }

    /** {@code state}, counting the calls to {@link ClusterState#podNode}. */
    private ClusterState countingPodNode(ClusterState target) {
        return (ClusterState) Proxy.newProxyInstance(ClusterState.class.getClassLoader(),
                new Class<?>[] {ClusterState.class}, (proxy, method, args) -> {
                    if (method.getName().equals("podNode")) {
                        lookups.incrementAndGet();
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
