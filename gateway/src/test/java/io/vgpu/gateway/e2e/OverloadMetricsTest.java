package io.vgpu.gateway.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shedding is counted on every endpoint: with one request allowed in flight ({@code VGPU_MAX_IN_FLIGHT=1}), a
 * {@code /filter} or {@code /bind} that arrives while another is held (its API write stalls in the mock API server)
 * is answered {@code Error: overloaded} and counted in {@code vgpu_http_overloaded_total{endpoint}}, as the
 * webhook's are.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverloadMetricsTest {

    private static final String NS = "overload";
    private static final String OVERLOADED_FILTER = "{\"Nodes\":null,\"NodeNames\":null,\"FailedNodes\":null,"
            + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"overloaded\"}";

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway("VGPU_MAX_IN_FLIGHT", "1");

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
    }

    @Test
    void aFilterPastTheBoundIsAnsweredOverloadedAndCounted() throws Exception {
        cluster.registeredNode("overload-f", gpu("GPU-overload-f", 0, 32768));
        Pod held = cluster.admit(NS, "held-filter", "1000");
        Pod shed = cluster.admit(NS, "shed-filter", "1000");
        double before = overloaded("/filter");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch reached = new CountDownLatch(1);
        hold("PATCH", "/api/v1/namespaces/" + NS + "/pods/held-filter", reached, release);

        CompletableFuture<E2eCluster.Reply> first = cluster.filterAsync(held, "overload-f");
        assertThat(reached.await(20, TimeUnit.SECONDS)).as("the first filter reached its annotation write").isTrue();
        E2eCluster.Reply second = cluster.filter(shed, "overload-f");
        release.countDown();

        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(OVERLOADED_FILTER);
        assertThat(E2eCluster.answered(first).json().path("NodeNames").path(0).asText()).isEqualTo("overload-f");
        assertThat(overloaded("/filter")).isEqualTo(before + 1);
    }

    @Test
    void aBindPastTheBoundIsAnsweredOverloadedAndCounted() throws Exception {
        String node = "overload-b";
        cluster.registeredNode(node, gpu("GPU-overload-b", 0, 32768));
        Pod held = filtered("held-bind", node);
        Pod shed = filtered("shed-bind", node);
        double before = overloaded("/bind");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch reached = new CountDownLatch(1);
        hold("POST", "/api/v1/namespaces/" + NS + "/pods/held-bind/binding", reached, release);

        CompletableFuture<E2eCluster.Reply> first = cluster.bindAsync(held, node);
        assertThat(reached.await(20, TimeUnit.SECONDS)).as("the first bind reached its Binding").isTrue();
        E2eCluster.Reply second = cluster.bind(shed, node);
        release.countDown();

        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body()).isEqualTo("{\"Error\":\"overloaded\"}");
        assertThat(E2eCluster.answered(first).body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(overloaded("/bind")).isEqualTo(before + 1);
        cluster.pluginAllocates(node, held);
    }

    /** The mock API server stalls the next such request until {@code release} (the gateway's call stays in flight). */
    private static void hold(String method, String path, CountDownLatch reached, CountDownLatch release) {
        cluster.api().beforeNext(method, path, api -> {
            reached.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static Pod filtered(String name, String node) {
        Pod p = cluster.admit(NS, name, "1000");
        assertThat(cluster.filter(p, node).json().path("NodeNames").path(0).asText()).isEqualTo(node);
        return cluster.pod(p);
    }

    /** {@code vgpu_http_overloaded_total{endpoint}} of this replica, 0 when absent. */
    private static double overloaded(String endpoint) {
        for (String line : cluster.getMetricsPort("/metrics").body().split("\n")) {
            if (line.startsWith("vgpu_http_overloaded_total{") && line.contains("endpoint=\"" + endpoint + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
