package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Every {@link KubeApi} call reaches its metrics once, with its resource kind and its status or why none came. */
class KubeApiCallMetricsTest {

    private static MockApiServer server;
    private static KubernetesClient client;

    private record Call(String verb, String resource, String code, long nanos) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final KubeApiMetrics recording = (verb, resource, code, nanos) -> calls.add(
            new Call(verb, resource, code, nanos));

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
    }

    @AfterAll
    static void stopServer() {
        client.close();
        server.close();
    }

    @Test
    void answeredCallsCarryTheirStatusAndResourceKind() {
        client.resource(KubeFixtures.pod("metrics-answered", "p").build()).create();
        try (KubeApi api = new KubeApi(client, KubeFixtures.TEST_CLIENT, recording)) {
            ApiResponse read = await(api.get(KubePaths.pod("metrics-answered", "p")));
            ApiResponse missing = await(api.get(KubePaths.pod("metrics-answered", "missing")));
            ApiResponse patched = await(api.mergePatch(KubePaths.pod("metrics-answered", "p"),
                    "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));

            assertThat(read.status()).isEqualTo(200);
            assertThat(missing.status()).isEqualTo(404);
            assertThat(patched.ok()).isTrue();
            // the status each call got (the mock answers a patch with 202), never a made-up one
            assertThat(calls).extracting(Call::verb, Call::resource, Call::code)
                    .containsExactly(tuple("GET", "pods", "200"), tuple("GET", "pods", "404"),
                            tuple("PATCH", "pods", Integer.toString(patched.status())));
        }
        assertThat(calls).allSatisfy(c -> assertThat(c.nanos()).isPositive());
    }

    @Test
    void aCallTheRateLimiterRefusesIsRecordedAsRateLimited() {
        try (KubeApi api = new KubeApi(client, KubeFixtures.TEST_CLIENT.withRate(0.001, 1), recording)) {
            await(api.post(KubePaths.events("metrics-limited"), "{}", KubeApi.Priority.BEST_EFFORT));
            ApiResponse refused = await(api.post(KubePaths.events("metrics-limited"), "{}",
                    KubeApi.Priority.BEST_EFFORT));

            assertThat(refused.status()).isZero();
            assertThat(api.inFlight()).isZero();
        }

        assertThat(calls).extracting(Call::resource, Call::code).last()
                .isEqualTo(tuple("events", KubeApiMetrics.RATE_LIMITED));
        assertThat(calls).hasSize(2);
    }

    @Test
    void aCallToAnApiServerThatIsGoneIsRecordedAsUnreachable() {
        MockApiServer gone = MockApiServer.start();
        KubernetesClient orphan = gone.client(KubeFixtures.TEST_CLIENT);
        gone.close();
        try (KubeApi api = new KubeApi(orphan, KubeFixtures.TEST_CLIENT, recording)) {
            ApiResponse failed = await(api.get(KubePaths.node("n1")));

            assertThat(failed.status()).isZero();
        } finally {
            orphan.close();
        }

        assertThat(calls).extracting(Call::verb, Call::resource, Call::code)
                .containsExactly(tuple("GET", "nodes", KubeApiMetrics.UNREACHABLE));
    }
}
