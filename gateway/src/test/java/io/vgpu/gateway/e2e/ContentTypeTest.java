package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer has the protocol's shape, whatever the request's {@code Content-Type}: a JSON body sent as a form,
 * as multipart (with or without a boundary), as text or with none is read as JSON like any other and decided
 * (AdmissionReview, ExtenderFilterResult, ExtenderBindingResult, HTTP 200), never turned into a {@code problem+json}
 * 400 by the HTTP layer; an oversized body keeps its clear error in the protocol's shape.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ContentTypeTest {

    private static final String NS = "content-type";
    private static final AtomicInteger PODS = new AtomicInteger();

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
        cluster.registeredNode("ct-node", gpu("GPU-ct-0", 0, 32768), gpu("GPU-ct-1", 1, 32768));
    }

    static Stream<Arguments> contentTypes() {
        return Stream.of("<none>", "application/x-www-form-urlencoded", "multipart/form-data",
                        "multipart/form-data; boundary=xyz", "text/plain", "application/json; charset=utf-8",
                        "application/octet-stream")
                .flatMap(type -> Stream.of(HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2)
                        .map(version -> Arguments.of(type, version)));
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("contentTypes")
    void theWebhookDecidesAJsonReviewWhateverItsContentType(String contentType, HttpClient.Version version) {
        ObjectNode review = E2eCluster.JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        String uid = UUID.randomUUID().toString();
        review.putObject("request").put("uid", uid).put("namespace", NS).put("operation", "CREATE")
                .set("object", E2eCluster.tree(cluster.kube().getKubernetesSerialization()
                        .asJson(pod("wh-" + PODS.incrementAndGet()))));

        E2eCluster.Reply reply = post("/webhook", contentType, review.toString(), version);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).isEqualTo("application/json");
        JsonNode response = reply.json().path("response");
        assertThat(response.path("uid").asText()).isEqualTo(uid);
        assertThat(response.path("allowed").asBoolean()).as(reply.body()).isTrue();
        assertThat(response.has("patch")).as("mutated: schedulerName and defaults").isTrue();
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("contentTypes")
    void filterAndBindDecideJsonArgsWhateverTheirContentType(String contentType, HttpClient.Version version) {
        Pod pod = cluster.admit(pod("ext-" + PODS.incrementAndGet()));

        E2eCluster.Reply filtered = post("/filter", contentType, cluster.filterBody(pod, "ct-node"), version);

        assertThat(filtered.status()).isEqualTo(200);
        assertThat(filtered.contentType()).isEqualTo("application/json");
        assertThat(filtered.body()).isEqualTo("{\"Nodes\":null,\"NodeNames\":[\"ct-node\"],\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}");

        E2eCluster.Reply bound = post("/bind", contentType, E2eCluster.bindBody(cluster.pod(pod), "ct-node"), version);

        assertThat(bound.status()).isEqualTo(200);
        assertThat(bound.body()).isEqualTo("{\"Error\":\"\"}");
        cluster.pluginAllocates("ct-node", pod);
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("contentTypes")
    void oversizedBodiesKeepTheirClearErrorWhateverTheirContentType(String contentType, HttpClient.Version version) {
        char[] pad = new char[7 * 1024 * 1024 + 1];
        Arrays.fill(pad, ' ');
        String huge = "{" + new String(pad) + "}";

        E2eCluster.Reply webhook = post("/webhook", contentType, huge, version);
        E2eCluster.Reply filter = post("/filter", contentType, huge, version);
        E2eCluster.Reply bind = post("/bind", contentType, huge, version);

        assertThat(webhook.status()).isEqualTo(200);
        assertThat(webhook.json().path("response").path("status").path("code").asInt()).isEqualTo(413);
        assertThat(filter.status()).isEqualTo(200);
        assertThat(filter.json().path("Error").asText()).isEqualTo("request body exceeds 1048576 bytes");
        assertThat(bind.status()).isEqualTo(200);
        assertThat(bind.body()).isEqualTo("{\"Error\":\"request body exceeds 1048576 bytes\"}");
    }

    /** A GPU pod whose JSON is no valid form encoding ({@code %} not followed by two hex digits). */
    private static Pod pod(String name) {
        return E2eCluster.pod(NS, name, "1000").editMetadata().addToAnnotations("note", "100% of a share")
                .endMetadata().build();
    }

    private static E2eCluster.Reply post(String path, String contentType, String body, HttpClient.Version version) {
        return cluster.post(path, contentType.equals("<none>") ? null : contentType,
                body.getBytes(StandardCharsets.UTF_8), version);
    }
}
