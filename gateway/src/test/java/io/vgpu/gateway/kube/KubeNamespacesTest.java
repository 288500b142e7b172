package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.testflow.TestFlow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static org.assertj.core.api.Assertions.assertThat;

/** The namespace cache behind the webhook's {@code vgpu.io/mode} label, on the CRUD mock. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KubeNamespacesTest {

    private MockApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void aFailedFirstListIsRetriedSoTheCacheSyncsAndServesLabels(Vertx vertx, VertxTestContext ctx) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ml")
                .addToLabels("vgpu.io/mode", "dra").endMetadata().build()).create();
        // the first lists fail as a loaded or restarting API server answers them; readiness waits for this cache,
        // so an informer that gave up would leave the gateway unready for good
        for (int i = 0; i < 2; i++) {
            server.failNextMatching("GET", p -> p.startsWith("/api/v1/namespaces?"), 500, "injected list failure");
        }
        KubeNamespaces namespaces = new KubeNamespaces(client);
        namespaces.start();

        Future<Void> served = TestFlow.eventually(vertx, Duration.ofSeconds(30),
                "the namespace cache synced after failed lists", () -> Future.succeededFuture(namespaces.hasSynced()))
                .map(synced -> {
                    assertThat(namespaces.labels("ml")).isEqualTo(Optional.of(Map.of("vgpu.io/mode", "dra")));
                    assertThat(namespaces.labels("unknown")).isEmpty();
                    return synced;
                });

        TestFlow.finish(ctx, served.eventually(() -> onWorker(vertx, () -> {
            namespaces.close();
            return null;
        })), v -> { });
    }
}
