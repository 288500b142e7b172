package io.vgpu.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.kube.KubeClientConfig;
import io.vgpu.gateway.kube.KubeClientFactory;
import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulated API server's Events are bounded and expire (issue 10 item 7): a long {@code simulate --serve} run
 * writes Events without end, and fabric8's CRUD store, which scans everything it holds on every request, would slow
 * every pod and node call down with them. Before, every Event stayed in the CRUD store.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimulatedEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theApiServerKeepsOnlyTheNewestEventsAndServesThemToClients(@TempDir Path dir) throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (SimulatedApiServer server = SimulatedApiServer.start(0, new SimulatedEvents(50, Duration.ofHours(1),
                clock))) {
            KubernetesClient client = KubeClientFactory.create(new KubeClientConfig(
                    server.writeKubeconfig(dir.resolve("kubeconfig")).toString(), null, 0, 1, Duration.ofSeconds(10),
                    64, Duration.ofSeconds(1), 0), null);
            try {
                Pod pod = client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName("p")
                        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i").endContainer()
                        .endSpec().build()).create();
                for (int i = 0; i < 200; i++) {
                    client.v1().events().inNamespace("ns").resource(event("p." + i, i % 2 == 0 ? "p" : "q", i))
                            .create();
                }
                List<Event> kept = client.v1().events().inNamespace("ns").list().getItems();
                assertThat(kept).hasSize(50);
                assertThat(kept.get(0).getMetadata().getName()).isEqualTo("p.150");
                assertThat(kept.get(49).getMetadata().getName()).isEqualTo("p.199");
                assertThat(server.events().created()).isEqualTo(200);
                // kubectl describe pod asks by field selector
                List<Event> ofP = client.v1().events().inNamespace("ns").withField("involvedObject.name", "p").list()
                        .getItems();
                assertThat(ofP).hasSize(25).allSatisfy(e -> assertThat(e.getInvolvedObject().getName()).isEqualTo("p"));
                assertThat(client.v1().events().inNamespace("ns").withName("p.199").get().getReason())
                        .isEqualTo("Reason199");
                // the pods around them are the CRUD store's, unchanged
                assertThat(client.pods().inNamespace("ns").withName("p").get().getMetadata().getUid())
                        .isEqualTo(pod.getMetadata().getUid());

                clock.advance(Duration.ofMinutes(61));
                assertThat(client.v1().events().inAnyNamespace().list().getItems()).as("an hour later").isEmpty();
            } finally {
                client.close();
            }
        }
    }

    @Test
    void answersCreateListGetAndRefusesWhatItDoesNotServe() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        SimulatedEvents events = new SimulatedEvents(3, Duration.ofMinutes(10), clock);
        SimulatedEvents.Answer created = events.create("ns", JSON.writeValueAsString(JSON.createObjectNode()
                .put("kind", "Event").set("metadata", JSON.createObjectNode().put("name", "e1"))));
        assertThat(created.status()).isEqualTo(201);
        JsonNode stored = JSON.readTree(created.body()).path("metadata");
        assertThat(stored.path("namespace").asText()).isEqualTo("ns");
        assertThat(stored.path("uid").asText()).isNotEmpty();
        assertThat(events.create("ns", "{\"metadata\":{\"name\":\"e1\"}}").status()).as("the same name").isEqualTo(409);
        assertThat(events.create("ns", "{\"metadata\":{}}").status()).isEqualTo(422);
        assertThat(events.create("ns", "{\"metadata\":{\"name\":\"x\",\"namespace\":\"other\"}}").status())
                .isEqualTo(400);
        assertThat(events.create("ns", "not json").status()).isEqualTo(400);
        assertThat(events.get("ns", "nope", null).status()).isEqualTo(404);
        assertThat(events.get(null, null, "fieldSelector=spec.nodeName%3Dn").status()).isEqualTo(400);
        assertThat(events.unsupported("PATCH").status()).isEqualTo(405);
        for (int i = 2; i <= 5; i++) {
            events.create("ns", "{\"metadata\":{\"name\":\"e" + i + "\"}}");
        }
        assertThat(events.size()).isEqualTo(3);
        assertThat(JSON.readTree(events.get(null, null, null).body()).path("items").findValuesAsText("name"))
                .containsExactly("e3", "e4", "e5");
        clock.advance(Duration.ofMinutes(11));
        assertThat(events.size()).isZero();
    }

    private static Event event(String name, String pod, int i) {
        return new EventBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
                .withNewInvolvedObject().withKind("Pod").withNamespace("ns").withName(pod).endInvolvedObject()
                .withReason("Reason" + i).withMessage("message " + i).withType("Normal").build();
    }
}
