package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production wiring over real HTTPS with client authentication on ({@code VGPU_TLS_CLIENT_CA_FILE}): a caller
 * without kube-scheduler's client certificate can neither filter nor bind (and changes nothing), nor read
 * {@code /debug/state} served on the API port; kube-scheduler's certificate filters and binds a pod; the API server's
 * webhook call needs no client certificate. Item 8 of issue 10: before it, anyone who reached the port could bind any
 * pending GPU pod anywhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KubeSchedulerOnlyTest {

    @TempDir
    static Path dir;
    static TestIdentity server;
    static E2eCluster cluster;
    static HttpClient anonymous;
    static ErrorLogs errors;

    @BeforeAll
    static void start() throws Exception {
        server = TestIdentity.create("gateway.test", dir);
        TestIdentity kubeScheduler = TestIdentity.create("vgpu-kube-scheduler", dir);
        Path clientCa = Files.copy(kubeScheduler.cert(), dir.resolve("client-ca.crt"));
        errors = ErrorLogs.attach();
        cluster = E2eCluster.start(TestIdentity.clientContext(kubeScheduler, server),
                "VGPU_TLS_CERT_FILE", server.cert().toString(), "VGPU_TLS_KEY_FILE", server.key().toString(),
                "VGPU_TLS_CLIENT_CA_FILE", clientCa.toString(), "VGPU_DEBUG_STATE", "api");
        anonymous = HttpClient.newBuilder().sslContext(TestIdentity.clientContext(null, server))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            errors.close();
        }
    }

    @Test
    void onlyKubeSchedulersCertificateFiltersAndBindsAndTheWebhookNeedsNone() throws Exception {
        String node = "guarded-node";
        cluster.registeredNode(node, gpu("GPU-guarded-0", 0, 32768));
        // the API server calls the webhook without a client certificate
        JsonNode review = anonymousPost("/webhook", admissionReview()).json();
        assertThat(review.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(review.path("response").path("patch").asText()).as("the webhook mutated the pod").isNotEmpty();

        Pod pod = cluster.admit("guarded", "pod-a", "8000");
        E2eCluster.Reply filter = anonymousPost("/filter", cluster.filterBody(pod, node));
        E2eCluster.Reply bind = anonymousPost("/bind", E2eCluster.bindBody(pod, node));
        assertThat(filter.status()).isEqualTo(200);
        assertThat(filter.json().path("Error").asText()).startsWith("client certificate required");
        assertThat(filter.json().path("NodeNames").isNull() || filter.json().path("NodeNames").isEmpty()).isTrue();
        assertThat(bind.status()).isEqualTo(200);
        assertThat(bind.json().path("Error").asText()).startsWith("client certificate required");
        assertThat(cluster.pod(pod).getMetadata().getAnnotations()).doesNotContainKey(HamiAnnotations.VGPU_NODE);
        assertThat(cluster.nodeState(node).charges()).as("nothing reserved").isEmpty();
        assertThat(cluster.api().bindings("guarded")).as("nothing bound").isEmpty();
        E2eCluster.Reply state = anonymousGet("/debug/state");
        assertThat(state.status()).isEqualTo(403);
        assertThat(state.body()).doesNotContain(node);

        E2eCluster.Reply filtered = cluster.filter(pod, node);
        assertThat(filtered.json().path("Error").asText()).isEmpty();
        assertThat(filtered.json().path("NodeNames").get(0).asText()).isEqualTo(node);
        E2eCluster.Reply bound = cluster.bind(pod, node);
        assertThat(bound.json().path("Error").asText()).isEmpty();
        assertThat(cluster.api().bindings("guarded")).singleElement()
                .satisfies(b -> assertThat(b.node()).isEqualTo(node));
        E2eCluster.Reply stateAsScheduler = cluster.get("/debug/state");
        assertThat(stateAsScheduler.status()).isEqualTo(200);
        assertThat(stateAsScheduler.body()).contains(node, pod.getMetadata().getUid());
        assertThat(cluster.getMetricsPort("/debug/state").status()).as("not on the plain-HTTP metrics port")
                .isEqualTo(404);
        assertThat(cluster.getMetricsPort("/metrics").body())
                .contains("vgpu_http_client_refused_total{endpoint=\"/filter\",reason=\"no_certificate\"");
        assertThat(errors.errors()).as("ERROR logs of the gateway").isEmpty();
    }

    private static String admissionReview() {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\""
                + UUID.randomUUID() + "\",\"namespace\":\"guarded\",\"operation\":\"CREATE\",\"object\":{\"metadata\":"
                + "{\"name\":\"p\",\"namespace\":\"guarded\"},\"spec\":{\"schedulerName\":\"default-scheduler\","
                + "\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}}}";
    }

    private static E2eCluster.Reply anonymousPost(String path, String body) throws Exception {
        return reply(anonymous.send(HttpRequest.newBuilder(cluster.uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    private static E2eCluster.Reply anonymousGet(String path) throws Exception {
        return reply(anonymous.send(HttpRequest.newBuilder(cluster.uri(path)).timeout(Duration.ofSeconds(10)).GET()
                .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    private static E2eCluster.Reply reply(HttpResponse<String> r) {
        return new E2eCluster.Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    }
}
