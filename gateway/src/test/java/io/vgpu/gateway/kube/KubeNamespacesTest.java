package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The namespace cache behind the webhook's {@code vgpu.io/mode} label, on the CRUD mock. */
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
    void aFailedFirstListIsRetriedSoTheCacheSyncsAndServesLabels() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ml")
                .addToLabels("vgpu.io/mode", "dra").endMetadata().build()).create();
        // the first lists fail as a loaded or restarting API server answers them; readiness waits for this cache,
        // so an informer that gave up would leave the gateway unready for good
        for (int i = 0; i < 2; i++) {
            server.failNextMatching("GET", p -> p.startsWith("/api/v1/namespaces?"), 500, "injected list failure");
        }
        try (KubeNamespaces namespaces = new KubeNamespaces(client)) {
            namespaces.start();
            Eventually.within(Duration.ofSeconds(30), "the namespace cache synced after failed lists",
                    namespaces::hasSynced);
            assertThat(namespaces.labels("ml")).isEqualTo(Optional.of(Map.of("vgpu.io/mode", "dra")));
            assertThat(namespaces.labels("unknown")).isEmpty();
        }
    }
}
