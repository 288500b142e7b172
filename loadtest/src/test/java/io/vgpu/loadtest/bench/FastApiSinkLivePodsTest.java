package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cycle rows' steady state: with a live-pod bound the sink deletes the oldest allocated pod once more are alive,
 * and every watch gets its DELETED event (which a replica's ingest turns into released charges); without one every
 * pod stays placed, as the density rows need.
 */
class FastApiSinkLivePodsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void deletesTheOldestAllocatedPodBeyondTheBoundAndTellsEveryWatch() {
        try (FastApiSink sink = new FastApiSink(Duration.ZERO, 2)) {
            List<String> deleted = new CopyOnWriteArrayList<>();
            sink.subscribe(deletions(deleted));
            sink.createNode("gpu-node-1", Map.of(), 8);
            for (String name : List.of("p1", "p2", "p3")) {
                sink.createPod(pod(name));
                sink.bind(new PodAddress("ns", name, "uid-" + name), "gpu-node-1");
                // one at a time: the allocations, and so the order the pods age in, follow the bindings
                Eventually.within(BOUND, name + " allocated", () -> sink.pod("ns", name)
                        .map(ObservedPod::bindPhase).filter("success"::equals).isPresent());
            }

            Eventually.within(BOUND, "one pod deleted", () -> deleted.size() == 1);
            assertThat(deleted).containsExactly("p1");
            assertThat(sink.pod("ns", "p1")).isEmpty();
            assertThat(sink.pod("ns", "p2")).isPresent();
            assertThat(sink.pod("ns", "p3")).isPresent();
            assertThat(sink.deleted()).isEqualTo(1);
        }
    }

    @Test
    void keepsEveryPodWithoutABound() {
        try (FastApiSink sink = new FastApiSink(Duration.ZERO)) {
            sink.createNode("gpu-node-1", Map.of(), 8);
            for (String name : List.of("p1", "p2", "p3")) {
                sink.createPod(pod(name));
                sink.bind(new PodAddress("ns", name, "uid-" + name), "gpu-node-1");
            }
            Eventually.within(BOUND, "every pod allocated", () -> sink.allocated() == 3);
            assertThat(sink.pods()).hasSize(3);
            assertThat(sink.deleted()).isZero();
        }
    }

    private static PodSpec pod(String name) {
        return new PodSpec(name, "ns", "uid-" + name, "vgpu-scheduler", "", null, Map.of(), Map.of(), List.of(),
                List.of());
    }

    private static ClusterEvents deletions(List<String> deleted) {
        return new ClusterEvents() {
            @Override
            public void podDeleted(ObservedPod lastKnown) {
                deleted.add(lastKnown.spec().name());
            }
        };
    }
}
