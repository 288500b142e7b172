package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.health.HealthVerdict;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.HandshakeCodec;
import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link HandshakeReconciler}: the handshake is written once per change, health follows NvidiaHealth. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeHandshakeTest {

    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private ManualClock clock;
    private HandshakeReconciler reconciler;
    private String nodeName;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        api = kube.api();
    }

    @AfterAll
    static void stopServer() {
        kube.close();
    }

    @BeforeEach
    void setUp(TestInfo test) {
        nodeName = "node-" + KubeFixtures.nameOf(test);
        clock = new ManualClock(NOW);
        reconciler = new HandshakeReconciler(api, clock, ZoneOffset.UTC);
    }

    @Test
    void anUnstampedNodeIsStampedOnceEvenFromAStaleObservation(Vertx vertx, VertxTestContext ctx) {
        client.resource(node(nodeName).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU)
                .allocatableGpus("1").build()).create();
        NodeObservation stale = observation(null, 1);

        Future<HealthVerdict> first = step(reconciler.reconcile(stale));
        Future<HealthVerdict> second = step(reconciler.reconcile(stale));
        clock.advance(Duration.ofSeconds(15));
        Future<HealthVerdict> third = step(reconciler.reconcile(stale));

        Future<List<HealthVerdict>> all = Future.all(first, second, third).map(CompositeFuture::<HealthVerdict>list);
        finishOnWorker(ctx, vertx, all, verdicts -> {
            assertThat(verdicts).extracting(HealthVerdict::healthy).containsExactly(true, true, true);
            assertThat(handshakePatches()).hasSize(1);
            assertThat(handshakePatches().get(0).body()).isEqualTo(
                    "{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":\"Requesting_2026-08-01 06:00:00\"}}}");
            assertThat(handshakeOnNode()).isEqualTo("Requesting_2026-08-01 06:00:00");
        });
    }

    @Test
    void aNodeShowingAFreshStampIsLeftAlone(VertxTestContext ctx) {
        client.resource(node(nodeName).allocatableGpus("1").build()).create();

        finish(ctx, step(reconciler.reconcile(
                observation(HandshakeCodec.requesting(NOW.minusSeconds(10), ZoneOffset.UTC), 1))), verdict -> {
            assertThat(verdict.healthy()).isTrue();
            assertThat(handshakePatches()).isEmpty();
        });
    }

    @Test
    void anExpiredStampWithGpusAllocatableStaysHealthyWithoutWriting(VertxTestContext ctx) {
        client.resource(node(nodeName).allocatableGpus("2").build()).create();
        String old = HandshakeCodec.requesting(NOW.minusSeconds(600), ZoneOffset.UTC);

        Future<HealthVerdict> again = step(reconciler.reconcile(observation(old, 2)))
                .compose(first -> step(reconciler.reconcile(observation(old, 2))));

        finish(ctx, again, verdict -> {
            assertThat(verdict).isEqualTo(new HealthVerdict(true, false));
            assertThat(handshakePatches()).isEmpty();
        });
    }

    @Test
    void aNodeThatLostItsGpusIsUnhealthyAndItsStampIsRemoved(Vertx vertx, VertxTestContext ctx) {
        String old = HandshakeCodec.requesting(NOW.minusSeconds(600), ZoneOffset.UTC);
        client.resource(node(nodeName).annotation(HamiAnnotations.NODE_HANDSHAKE, old).allocatableGpus("0").build())
                .create();

        Future<HealthVerdict> lost = step(reconciler.reconcile(observation(old, 2))) // remembered with 2 GPUs
                .compose(remembered -> step(reconciler.reconcile(observation(old, 0))));

        finishOnWorker(ctx, vertx, lost, verdict -> {
            assertThat(verdict.healthy()).isFalse();
            assertThat(handshakePatches()).hasSize(1);
            assertThat(handshakePatches().get(0).body())
                    .isEqualTo("{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":null}}}");
            assertThat(handshakeOnNode()).isNull();
        });
    }

    @Test
    void aMissingNodeStaysHealthy(VertxTestContext ctx) {
        finish(ctx, step(reconciler.reconcile(observation(null, 1))), verdict -> {
            // HAMi: the live GET fails ⇒ healthy, no update; NvidiaHealth then sees a first report of 1 GPU
            assertThat(verdict.healthy()).isTrue();
            assertThat(handshakePatches()).hasSize(1);
        });
    }

    private NodeObservation observation(String handshake, long gpus) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU);
        if (handshake != null) {
            annotations.put(HamiAnnotations.NODE_HANDSHAKE, handshake);
        }
        return new NodeObservation(nodeName, annotations, gpus, "1");
    }

    private List<MockApiServer.Request> handshakePatches() {
        return server.requests("PATCH", KubePaths.node(nodeName)).stream()
                .filter(r -> r.body().contains(HamiAnnotations.NODE_HANDSHAKE)).toList();
    }

    private String handshakeOnNode() {
        Map<String, String> annotations = client.nodes().withName(nodeName).get().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(HamiAnnotations.NODE_HANDSHAKE);
    }
}
