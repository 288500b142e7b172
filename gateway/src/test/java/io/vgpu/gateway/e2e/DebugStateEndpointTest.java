package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /debug/state} on the metrics port, where the chaos harness enables it explicitly
 * ({@code VGPU_DEBUG_STATE=metrics}; off by default): this replica's view of the shared state, as the harness's
 * invariant checker reads it (reservations with deadlines, bindings, lock holder, ownership, cluster safety), and
 * the refused-reservation counter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DebugStateEndpointTest {

    private static final String NS = "debug-state";

    private static E2eCluster cluster;

    @BeforeAll
    static void startGateway() throws Exception {
        cluster = E2eCluster.start("VGPU_DEBUG_STATE", "metrics");
    }

    @AfterAll
    static void stopGateway() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void showsReservationsThenBindingsAndTheLockHolderOfEveryNode() {
        String node = "debug-node";
        cluster.registeredNode(node, gpu("GPU-debug", 0, 32768));
        Pod pod = cluster.admit(NS, "debug-pod", "1000");
        String uid = pod.getMetadata().getUid();
        assertThat(cluster.filter(pod, node).json().path("NodeNames").get(0).asText()).isEqualTo(node);

        JsonNode reserved = charge(node, uid);
        assertThat(reserved.path("state").asText()).isEqualTo("Reserved");
        assertThat(reserved.path("deadlineMillis").asLong()).isGreaterThan(System.currentTimeMillis());
        assertThat(reserved.path("devices").asText()).startsWith("GPU-debug,NVIDIA,1000,");
        // the usage this replica scores on, from its summary-fed view (listener-fed: it may trail the owner's copy)
        cluster.eventually("the view scores the reservation", () -> {
            JsonNode card = viewOf(state(), node).path("devices").path(0);
            return card.path("id").asText().equals("GPU-debug") && card.path("used").asInt() == 1
                    && card.path("usedmem").asInt() == 1000;
        });
        JsonNode dump = state();
        assertThat(dump.path("cluster").path("members").asInt()).isEqualTo(1);
        assertThat(dump.path("cluster").path("clusterSafe").asBoolean()).isTrue();
        assertThat(dump.path("ready").asBoolean()).isTrue();
        assertThat(nodeOf(dump, node).path("owned").asBoolean()).isTrue();
        assertThat(nodeOf(dump, node).path("devices").asText()).contains("GPU-debug");

        assertThat(cluster.bind(pod, node).body()).isEqualTo("{\"Error\":\"\"}");

        assertThat(charge(node, uid).path("state").asText()).isEqualTo("Bound");
        assertThat(charge(node, uid).has("deadlineMillis")).isFalse();
        assertThat(nodeOf(state(), node).path("lock").path("name").asText()).isEqualTo("debug-pod");
        cluster.pluginAllocates(node, pod);
        cluster.eventually("the lock is released", () -> nodeOf(state(), node).path("lock").isNull());
    }

    @Test
    void countsReservationsTheSharedStateRefused() {
        String metrics = cluster.getMetricsPort("/metrics").body();

        assertThat(metrics).contains("vgpu_filter_reserve_conflicts_total{replica=\"e2e-replica\"}");
    }

    @Test
    void publishesTheIngestBacklog() {
        String metrics = cluster.getMetricsPort("/metrics").body();

        assertThat(metrics).containsPattern("(?m)^vgpu_ingest_backlog\\{replica=\"e2e-replica\"\\} [0-9.]+$");
    }

    private static JsonNode state() {
        E2eCluster.Reply reply = cluster.getMetricsPort("/debug/state");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        return reply.json();
    }

    private static JsonNode charge(String node, String uid) {
        for (JsonNode c : nodeOf(state(), node).path("charges")) {
            if (c.path("uid").asText().equals(uid)) {
                return c;
            }
        }
        throw new AssertionError("no charge of " + uid + " on " + node + ": " + state());
    }

    private static JsonNode viewOf(JsonNode dump, String node) {
        for (JsonNode n : dump.path("view")) {
            if (n.path("name").asText().equals(node)) {
                return n;
            }
        }
        return MissingNode.getInstance();
    }

    private static JsonNode nodeOf(JsonNode dump, String node) {
        for (JsonNode n : dump.path("nodes")) {
            if (n.path("name").asText().equals(node)) {
                return n;
            }
        }
        throw new AssertionError("node " + node + " missing from " + dump);
    }
}
