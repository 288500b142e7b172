package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.testing.InMemoryClusterState;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.ClusterState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod index (where a pod holds an earlier reservation) is a round trip to the shared state: a first filter, a pod
 * that no filter annotated yet, does not pay it; a pod a filter annotated is looked up and never competes with its own
 * earlier reservation.
 */
@ExtendWith(VertxExtension.class)
class FilterServicePodIndexTest {

    private final InMemoryClusterState state = stateWith(FilterFixtures.card("GPU-a", 0, 24_000, "NVIDIA A10"));
    private final AtomicInteger lookups = new AtomicInteger();
    private final FilterService service = FilterFixtures.service(countingPodNode(state), quotaBook(),
            new AcceptingPodWriter(), EventSink.NONE);

    @Test
    void aPodNoFilterAnnotatedIsDecidedWithoutLookingUpTheIndex(VertxTestContext ctx) {
        finish(ctx, filter(pod(Map.of())), first -> {
            assertThat(first.nodeNames()).containsExactly("node1");
            assertThat(lookups).hasValue(0);
        });
    }

    @Test
    void anAnnotatedPodIsLookedUpAndDoesNotCompeteWithItsOwnReservation(VertxTestContext ctx) {
        Future<ExtenderFilterResult> again = filter(pod(Map.of())).compose(first -> {
            assertThat(first.nodeNames()).containsExactly("node1");
            // kube-scheduler filters it again; its copy carries what the first filter wrote
            return filter(pod(Map.of(HamiAnnotations.VGPU_NODE, "node1")));
        });

        finish(ctx, again, result -> {
            assertThat(result.nodeNames()).as("20,000 of 24,000 MiB are its own").containsExactly("node1");
            assertThat(lookups).hasValue(1);
        });
    }

    @Test
    void withoutTheAnnotationItsEarlierReservationCountsAgainstItStricterNeverDouble(VertxTestContext ctx) {
        Future<ExtenderFilterResult> again = filter(pod(Map.of())).compose(first -> {
            assertThat(first.nodeNames()).containsExactly("node1");
            return filter(pod(Map.of()));
        });

        finish(ctx, again, result -> {
            assertThat(result.failedNodes()).containsKey("node1");
            assertThat(state.node("node1").devices().get(0).usedmem()).isEqualTo(20_000);
        });
    }

    private Future<ExtenderFilterResult> filter(PodSpec pod) {
        return FilterFixtures.filter(service, pod);
    }

    private static PodSpec pod(Map<String, String> annotations) {
        return FilterFixtures.pod("p", 20_000, annotations);
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
