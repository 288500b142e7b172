package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.testflow.TestFlow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fixture stops cleanly after a watch closed while the mock was still sending it events. fabric8's own close of
 * such a watch stalls the mock's event loop for 30 s, and the server's shutdown then fails with "Unable to close
 * MockWebServer" (the KubeNamespacesTest flake, and every device-plugin "did not stop in time" warning).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MockApiServerWatchCloseTest {

    /** Events of about 32 KiB each: together far more than the sockets buffer, so the mock's sends back up. */
    private static final int EVENTS = 400;
    private static final String BIG = "x".repeat(32 * 1024);

    private MockApiServer server;
    private KubernetesClient client;
    private WebSocketClient watchClient;

    @BeforeEach
    void start(Vertx vertx) {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        watchClient = vertx.createWebSocketClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void aWatchClosedWhileTheServerIsStillSendingEventsLetsTheServerStop(Vertx vertx, VertxTestContext ctx) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("busy")
                .addToAnnotations("big", BIG).endMetadata().build()).create();
        URI api = URI.create(server.config().getMasterUrl());

        // a watcher that reads nothing until it closes: the mock's sender is stuck in a send when the close arrives
        Future<Integer> stopped = watchClient.connect(api.getPort(), api.getHost(), "/api/v1/namespaces?watch=true")
                .compose(watch -> {
                    watch.pause();
                    return onWorker(vertx, () -> {
                        for (int i = 0; i < EVENTS; i++) {
                            server.patchDirectly("/api/v1/namespaces/busy",
                                    "{\"metadata\":{\"labels\":{\"seq\":\"" + i + "\"}}}");
                        }
                        return watch;
                    });
                })
                .compose(watch -> {
                    watch.resume();
                    watch.close();
                    return onWorker(vertx, () -> {
                        client.close();
                        server.close();
                        return server.requests("GET", "/api/v1/namespaces?watch=true").size();
                    });
                });

        TestFlow.finish(ctx, stopped, watches -> assertThat(watches).isEqualTo(1));
    }
}
