package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Every {@link KubeApi} call reaches its metrics once, with its resource kind and its status or why none came. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
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
    void answeredCallsCarryTheirStatusAndResourceKind(Vertx vertx, VertxTestContext ctx) {
        client.resource(KubeFixtures.pod("metrics-answered", "p").build()).create();
        KubeApi api = new KubeApi(client, KubeFixtures.TEST_CLIENT, recording);

        Future<List<ApiResponse>> answers = step(api.get(KubePaths.pod("metrics-answered", "p")))
                .compose(read -> step(api.get(KubePaths.pod("metrics-answered", "missing")))
                        .compose(missing -> step(api.mergePatch(KubePaths.pod("metrics-answered", "p"),
                                "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"))
                                .map(patched -> List.of(read, missing, patched))));

        finish(ctx, closing(vertx, api, answers), r -> {
            ApiResponse patched = r.get(2);
            assertThat(r.get(0).status()).isEqualTo(200);
            assertThat(r.get(1).status()).isEqualTo(404);
            assertThat(patched.ok()).isTrue();
            // the status each call got (the mock answers a patch with 202), never a made-up one
            assertThat(calls).extracting(Call::verb, Call::resource, Call::code)
                    .containsExactly(tuple("GET", "pods", "200"), tuple("GET", "pods", "404"),
                            tuple("PATCH", "pods", Integer.toString(patched.status())));
            assertThat(calls).allSatisfy(c -> assertThat(c.nanos()).isPositive());
        });
    }

    @Test
    void aCallTheRateLimiterRefusesIsRecordedAsRateLimited(Vertx vertx, VertxTestContext ctx) {
        KubeApi api = new KubeApi(client, KubeFixtures.TEST_CLIENT.withRate(0.001, 1), recording);

        Future<ApiResponse> refused = step(api.post(KubePaths.events("metrics-limited"), "{}",
                KubeApi.Priority.BEST_EFFORT)).compose(first -> step(api.post(KubePaths.events("metrics-limited"),
                "{}", KubeApi.Priority.BEST_EFFORT)));

        finish(ctx, closing(vertx, api, refused.map(r -> {
            assertThat(api.inFlight()).isZero();
            return r;
        })), r -> {
            assertThat(r.status()).isZero();
            assertThat(calls).extracting(Call::resource, Call::code).last()
                    .isEqualTo(tuple("events", KubeApiMetrics.RATE_LIMITED));
            assertThat(calls).hasSize(2);
        });
    }

    @Test
    void aBestEffortCallNotAdmittedIsRecordedAsTheRefusedCallWouldBe(Vertx vertx, VertxTestContext ctx) {
        KubeApi api = new KubeApi(client, KubeFixtures.TEST_CLIENT.withRate(0.001, 1), recording);
        String path = KubePaths.events("metrics-admitted");
        assertThat(api.admitsBestEffort("POST", path)).as("the one token free").isTrue();
        assertThat(calls).as("a yes is no call").isEmpty();

        Future<ApiResponse> first = step(api.post(path, "{}", KubeApi.Priority.BEST_EFFORT));

        finish(ctx, closing(vertx, api, first), r -> {
            assertThat(api.admitsBestEffort("POST", path)).as("the one token taken").isFalse();
            assertThat(calls).extracting(Call::verb, Call::resource, Call::code).last()
                    .isEqualTo(tuple("POST", "events", KubeApiMetrics.RATE_LIMITED));
            assertThat(calls).hasSize(2);
        });
    }

    @Test
    void aCallToAnApiServerThatIsGoneIsRecordedAsUnreachable(Vertx vertx, VertxTestContext ctx) {
        MockApiServer gone = MockApiServer.start();
        KubernetesClient orphan = gone.client(KubeFixtures.TEST_CLIENT);
        gone.close();
        KubeApi api = new KubeApi(orphan, KubeFixtures.TEST_CLIENT, recording);

        Future<ApiResponse> failed = closing(vertx, api, step(api.get(KubePaths.node("n1"))))
                .eventually(() -> onWorker(vertx, () -> {
                    orphan.close();
                    return null;
                }));

        finish(ctx, failed, r -> {
            assertThat(r.status()).isZero();
            assertThat(calls).extracting(Call::verb, Call::resource, Call::code)
                    .containsExactly(tuple("GET", "nodes", KubeApiMetrics.UNREACHABLE));
        });
    }

    /** {@code flow}, then {@code api} closed (on a worker) whether it succeeded or not. */
    private static <T> Future<T> closing(Vertx vertx, KubeApi api, Future<T> flow) {
        return flow.eventually(() -> onWorker(vertx, () -> {
            api.close();
            return null;
        }));
    }
}
