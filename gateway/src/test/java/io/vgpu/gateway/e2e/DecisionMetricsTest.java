package io.vgpu.gateway.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.gateway.metrics.Promtool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decision metrics on a running gateway: why filters placed nothing (per decision and per rejected node), why
 * binds failed, how long binds waited for node locks, and the latency and errors of its Kubernetes API calls; the
 * whole scrape passes {@code promtool check metrics}. Each test reads the counters before and after its own calls.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DecisionMetricsTest {

    private static final String NS = "decision-metrics";
    private static final String REPLICA = "e2e-replica";

    private static E2eCluster cluster;

    @BeforeAll
    static void startGateway() throws Exception {
        // a short lock wait, so that a contended bind gives up within the test
        cluster = E2eCluster.start("VGPU_NODE_LOCK_WAIT", "1s");
    }

    @AfterAll
    static void stopGateway() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFilterThatPlacesNothingCountsItsReasonAndTheRejectedNodesPerHamiReason() {
        cluster.registeredNode("small-a", gpu("GPU-small-a", 0, 4096));
        cluster.registeredNode("small-b", gpu("GPU-small-b", 0, 4096));
        double noFit = sample("vgpu_filter_failures_total", "reason", "no_fit");
        double rejected = sample("vgpu_filter_rejected_nodes_total", "reason", "CardInsufficientMemory");
        Pod huge = cluster.admit(NS, "huge", "30000");

        assertThat(cluster.filter(huge, "small-a", "small-b").json().path("NodeNames").isNull()).isTrue();

        assertThat(sample("vgpu_filter_failures_total", "reason", "no_fit")).isEqualTo(noFit + 1);
        assertThat(sample("vgpu_filter_rejected_nodes_total", "reason", "CardInsufficientMemory"))
                .isEqualTo(rejected + 2);
    }

    @Test
    void failedBindsAreCountedByReasonAndTheApiServersAnswersByCode() {
        cluster.registeredNode("plain", gpu("GPU-plain", 0, 32768));
        double noReservation = sample("vgpu_bind_failures_total", "reason", "no_reservation");
        double notFound = sample("vgpu_bind_failures_total", "reason", "pod_not_found");
        double reads404 = sample("vgpu_kube_api_errors_total", "verb", "GET", "resource", "pods", "code", "404");
        Pod unfiltered = cluster.admit(NS, "never-filtered", "1000");
        Pod ghost = E2eCluster.pod(NS, "ghost", "1000").editMetadata()
                .withUid(java.util.UUID.randomUUID().toString()).endMetadata().build();

        assertThat(cluster.bind(unfiltered, "plain").body()).contains("no reservation");
        assertThat(cluster.bind(ghost, "plain").body()).contains("not found");

        assertThat(sample("vgpu_bind_failures_total", "reason", "no_reservation")).isEqualTo(noReservation + 1);
        assertThat(sample("vgpu_bind_failures_total", "reason", "pod_not_found")).isEqualTo(notFound + 1);
        // the ghost is not in the informer cache, so the bind read it live once and got 404
        assertThat(sample("vgpu_kube_api_errors_total", "verb", "GET", "resource", "pods", "code", "404"))
                .isEqualTo(reads404 + 1);
    }

    @Test
    void bindsRecordTheirLockWaitAndAContendedBindThatGivesUpCountsALockTimeout() {
        String node = "contended";
        cluster.registeredNode(node, gpu("GPU-contended", 0, 32768));
        double acquired = sample("vgpu_bind_lock_wait_seconds_count", "outcome", "acquired");
        double timedOut = sample("vgpu_bind_lock_wait_seconds_count", "outcome", "timeout");
        double lockTimeouts = sample("vgpu_bind_failures_total", "reason", "lock_timeout");
        double contended = sample("vgpu_bind_lock_contended_total");
        double bindings = sample("vgpu_kube_api_request_duration_seconds_count",
                "verb", "POST", "resource", "pods/binding", "code", "201");
        Pod first = cluster.admit(NS, "first", "1000");
        Pod second = cluster.admit(NS, "second", "1000");
        assertThat(cluster.filter(first, node).json().path("NodeNames").get(0).asText()).isEqualTo(node);
        assertThat(cluster.filter(second, node).json().path("NodeNames").get(0).asText()).isEqualTo(node);

        assertThat(cluster.bind(first, node).body()).isEqualTo("{\"Error\":\"\"}");
        // the first pod's lock stays until its device plugin allocates: the second bind waits 1 s, then gives up
        assertThat(cluster.bind(second, node).body()).contains("node " + node + " has been locked");

        assertThat(sample("vgpu_bind_lock_wait_seconds_count", "outcome", "acquired")).isEqualTo(acquired + 1);
        assertThat(sample("vgpu_bind_lock_wait_seconds_count", "outcome", "timeout")).isEqualTo(timedOut + 1);
        assertThat(sample("vgpu_bind_lock_wait_seconds_sum", "outcome", "timeout")).isGreaterThanOrEqualTo(1.0);
        assertThat(sample("vgpu_bind_failures_total", "reason", "lock_timeout")).isEqualTo(lockTimeouts + 1);
        assertThat(sample("vgpu_bind_lock_contended_total")).as("the second bind found the lock held")
                .isGreaterThan(contended);
        assertThat(sample("vgpu_kube_api_request_duration_seconds_count",
                "verb", "POST", "resource", "pods/binding", "code", "201")).isEqualTo(bindings + 1);
        cluster.pluginAllocates(node, first);
    }

    @Test
    @Order(Integer.MAX_VALUE) // after the others, so that every new series is in the scrape
    void theScrapePassesPromtool() throws Exception {
        assertThat(Promtool.findings(cluster.getMetricsPort("/metrics").body())).isEmpty();
    }

    /** The value of the series {@code name} with {@code replica} and the given labels, 0 when absent. */
    private static double sample(String name, String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        wanted.put("replica", REPLICA);
        for (int i = 0; i + 1 < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        for (String line : cluster.getMetricsPort("/metrics").body().split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String labelText = line.substring(name.length() + 1, line.indexOf('}'));
            boolean all = wanted.entrySet().stream()
                    .allMatch(e -> labelText.contains(e.getKey() + "=\"" + e.getValue() + "\""));
            if (all) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
