package io.vgpu.loadtest.bench;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two API stand-ins read one {@link MirrorCache}: the {@link FastApiSink} answers from its own maps, a
 * {@link RemoteSink} from the mirror the {@link SinkServer}'s watch stream fills over real loopback HTTP; both give
 * the same answers, and a late listener gets every node, then every pod.
 */
class MirrorCacheTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void theRemoteMirrorAnswersAsTheSinkDoesAndReplaysNodesThenPods() throws Exception {
        try (FastApiSink sink = new FastApiSink(Duration.ZERO)) {
            sink.createNode("gpu-node-1", Map.of("a", "1"), 8);
            sink.createPlaced(new ObservedPod(pod("placed"), "Running", false, true, "1"));
            try (SinkServer server = SinkServer.start(sink); RemoteSink remote = RemoteSink.connect(server.port())) {
                sink.createPod(pod("created"));
                sink.patchFilterAnnotations(new PodAddress("ns", "created", "uid-created"), Map.of("k", "v"), Map.of());
                Eventually.passes(BOUND, () -> assertThat(remote.pod("ns", "created").map(p -> p.spec().annotations()))
                        .contains(Map.of("k", "v")));

                for (MirrorCache cache : List.of(sink, remote)) {
                    assertThat(cache.pod("ns", "created")).isEqualTo(sink.pod("ns", "created")).isPresent();
                    assertThat(cache.pod("ns", "placed").map(p -> p.spec().uid())).contains("uid-placed");
                    assertThat(cache.pod("ns", "absent")).isEmpty();
                    assertThat(cache.pod("other", "created")).isEmpty();
                    assertThat(cache.node("gpu-node-1").map(NodeObservation::allocatableGpus)).contains(8L);
                    assertThat(cache.node("gpu-node-2")).isEmpty();
                    assertThat(new HashSet<>(cache.pods())).isEqualTo(new HashSet<>(sink.pods())).hasSize(2);
                    assertThat(cache.nodes()).containsExactlyElementsOf(sink.nodes());
                    assertThat(cache.hasSynced()).isTrue();
                }

                List<String> seen = new CopyOnWriteArrayList<>();
                remote.subscribe(recorder(seen));
                Eventually.within(BOUND, "the replay of 1 node and 2 pods", () -> seen.size() == 3);
                assertThat(seen.get(0)).isEqualTo("node gpu-node-1");
                assertThat(seen.subList(1, 3)).containsExactlyInAnyOrder("pod placed", "pod created");
            }
        }
    }

    private static PodSpec pod(String name) {
        return new PodSpec(name, "ns", "uid-" + name, "vgpu-scheduler", "", null, Map.of(), Map.of(), List.of(),
                List.of());
    }

    private static ClusterEvents recorder(List<String> seen) {
        return new ClusterEvents() {
            @Override
            public void nodeUpserted(NodeObservation node) {
                seen.add("node " + node.name());
            }

            @Override
            public void podAdded(ObservedPod pod) {
                seen.add("pod " + pod.spec().name());
            }

            @Override
            public void podUpdated(ObservedPod pod) {
                seen.add("updated " + pod.spec().name());
            }

            @Override
            public void podDeleted(ObservedPod lastKnown) {
                seen.add("deleted " + lastKnown.spec().name());
            }
        };
    }
}
