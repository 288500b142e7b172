package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
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

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link HandshakeReconciler}: the handshake is written once per change, health follows NvidiaHealth. */
class KubeHandshakeTest {

    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private ManualClock clock;
    private HandshakeReconciler reconciler;
    private String nodeName;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
    }

    @AfterAll
    static void stopServer() {
        api.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void setUp(TestInfo test) {
        nodeName = "node-" + KubeFixtures.nameOf(test);
        clock = new ManualClock(NOW);
        reconciler = new HandshakeReconciler(api, clock, ZoneOffset.UTC);
    }

    @Test
    void anUnstampedNodeIsStampedOnceEvenFromAStaleObservation() {
        client.resource(node(nodeName).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU)
                .allocatableGpus("1").build()).create();
        NodeObservation stale = observation(null, 1);

        CompletionStage<HealthVerdict> first = reconciler.reconcile(stale);
        CompletionStage<HealthVerdict> second = reconciler.reconcile(stale);
        clock.advance(Duration.ofSeconds(15));
        HealthVerdict third = await(reconciler.reconcile(stale));

        assertThat(await(first).healthy()).isTrue();
        assertThat(await(second).healthy()).isTrue();
        assertThat(third.healthy()).isTrue();
        assertThat(handshakePatches()).hasSize(1);
        assertThat(handshakePatches().get(0).body()).isEqualTo(
                "{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":\"Requesting_2026-08-01 06:00:00\"}}}");
        assertThat(handshakeOnNode()).isEqualTo("Requesting_2026-08-01 06:00:00");
    }

    @Test
    void aNodeShowingAFreshStampIsLeftAlone() {
        client.resource(node(nodeName).allocatableGpus("1").build()).create();

        HealthVerdict verdict = await(reconciler.reconcile(
                observation(HandshakeCodec.requesting(NOW.minusSeconds(10), ZoneOffset.UTC), 1)));

        assertThat(verdict.healthy()).isTrue();
        assertThat(handshakePatches()).isEmpty();
    }

    @Test
    void anExpiredStampWithGpusAllocatableStaysHealthyWithoutWriting() {
        client.resource(node(nodeName).allocatableGpus("2").build()).create();
        String old = HandshakeCodec.requesting(NOW.minusSeconds(600), ZoneOffset.UTC);
        await(reconciler.reconcile(observation(old, 2)));

        HealthVerdict verdict = await(reconciler.reconcile(observation(old, 2)));

        assertThat(verdict).isEqualTo(new HealthVerdict(true, false));
        assertThat(handshakePatches()).isEmpty();
    }

    @Test
    void aNodeThatLostItsGpusIsUnhealthyAndItsStampIsRemoved() {
        String old = HandshakeCodec.requesting(NOW.minusSeconds(600), ZoneOffset.UTC);
        client.resource(node(nodeName).annotation(HamiAnnotations.NODE_HANDSHAKE, old).allocatableGpus("0").build())
                .create();
        await(reconciler.reconcile(observation(old, 2))); // remembered with 2 GPUs

        HealthVerdict verdict = await(reconciler.reconcile(observation(old, 0)));

        assertThat(verdict.healthy()).isFalse();
        assertThat(handshakePatches()).hasSize(1);
        assertThat(handshakePatches().get(0).body())
                .isEqualTo("{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":null}}}");
        assertThat(handshakeOnNode()).isNull();
    }

    @Test
    void aMissingNodeStaysHealthy() {
        HealthVerdict verdict = await(reconciler.reconcile(observation(null, 1)));

        // HAMi: the live GET fails ⇒ healthy, no update; NvidiaHealth then sees a first report of 1 GPU
        assertThat(verdict.healthy()).isTrue();
        assertThat(handshakePatches()).hasSize(1);
    }

    private NodeObservation observation(String handshake, long gpus) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU);
        if (handshake != null) {
            annotations.put(HamiAnnotations.NODE_HANDSHAKE, handshake);
        }
        return new NodeObservation(nodeName, annotations, gpus, "1");
    }

    private java.util.List<MockApiServer.Request> handshakePatches() {
        return server.requests("PATCH", KubePaths.node(nodeName)).stream()
                .filter(r -> r.body().contains(HamiAnnotations.NODE_HANDSHAKE)).toList();
    }

    private String handshakeOnNode() {
        Map<String, String> annotations = client.nodes().withName(nodeName).get().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(HamiAnnotations.NODE_HANDSHAKE);
    }
}
