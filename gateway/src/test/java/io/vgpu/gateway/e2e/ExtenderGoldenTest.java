package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden exchanges of {@code /filter} and {@code /bind} against the real gateway: the request files under
 * {@code src/test/resources/extender/*.request.json} (Go-style field names, case-insensitive as kube-scheduler's
 * decoder allows) and the answers HAMi gives. Cache-mode answers are compared byte for byte (the files end with a
 * newline that is not part of the body); the simulation answer echoes a node object and is compared as a tree.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExtenderGoldenTest {

    private static final String NODE = "golden-node";

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
        cluster.registeredNode(NODE, gpu("GPU-golden-0", 0, 32768));
    }

    @Test
    void filterFitAnswersTheOneChosenNode() {
        assertAnswer("/filter", withStoredPod(request("filter-fit")), "filter-fit");
    }

    @Test
    void filterNoFitAnswersEveryRejectedNodeWithHamiReasonsInKeyOrder() {
        assertAnswer("/filter", withStoredPod(request("filter-nofit")), "filter-nofit");
    }

    @Test
    void filterWithoutPodAnswersOnlyError() {
        assertAnswer("/filter", request("filter-error"), "filter-error");
    }

    @Test
    void filterOfAPodWithoutGpuRequestPassesTheNodeNamesThrough() {
        assertAnswer("/filter", request("filter-passthrough"), "filter-passthrough");
    }

    @Test
    void filterInSimulationModeAnswersTheBestNodeObjectAsSent() {
        E2eCluster.Reply reply = cluster.post("/filter", text(request("filter-simulation")));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json()).isEqualTo(E2eCluster.tree(golden("filter-simulation.json")));
        assertThat(reply.body()).startsWith("{\"Nodes\":{\"items\":[{").contains(
                "\"NodeNames\":null,\"FailedNodes\":{\"template-cpu-node\":\"node unregistered\"},"
                        + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}");
    }

    @Test
    void bindOfAFilteredPodAnswersEmptyError() {
        Pod pod = cluster.admit("golden", "golden-bind", "10000");
        assertThat(cluster.filter(pod, NODE).json().path("NodeNames").path(0).asText()).isEqualTo(NODE);
        ObjectNode args = (ObjectNode) request("bind-ok");
        args.put("PodUID", pod.getMetadata().getUid());

        assertAnswer("/bind", args, "bind-ok");
        cluster.pluginAllocates(NODE, pod);
    }

    @Test
    void bindOfAnUnknownPodAnswersTheNotFoundText() {
        assertAnswer("/bind", request("bind-error"), "bind-error");
    }

    // ------------------------------------------------------------------ helpers

    private static void assertAnswer(String path, JsonNode request, String golden) {
        E2eCluster.Reply reply = cluster.post(path, text(request));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        assertThat(reply.body()).isEqualTo(golden(golden + ".json").stripTrailing());
    }

    /** The request with its pod created in the API first (kube-scheduler only filters stored pods), UID filled in. */
    private static JsonNode withStoredPod(JsonNode request) {
        String podField = request.has("Pod") ? "Pod" : "pod";
        Pod stored = cluster.kube().pods().inNamespace(request.path(podField).path("metadata").path("namespace")
                .asText()).resource(cluster.kube().getKubernetesSerialization()
                .unmarshal(request.path(podField).toString(), Pod.class)).create();
        ((ObjectNode) request.path(podField).path("metadata")).put("uid", stored.getMetadata().getUid());
        return request;
    }

    private static JsonNode request(String name) {
        return E2eCluster.tree(golden(name + ".request.json"));
    }

    private static String text(JsonNode json) {
        return json.toString();
    }

    private static String golden(String file) {
        try (InputStream in = ExtenderGoldenTest.class.getResourceAsStream("/extender/" + file)) {
            if (in == null) {
                throw new AssertionError("missing golden file extender/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
