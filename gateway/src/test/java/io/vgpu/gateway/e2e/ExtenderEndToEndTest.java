package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.gateway.kube.MockApiServer;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.model.PodCharge;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One GPU pod's whole life through the real gateway, over real HTTP, with a real Hazelcast member and the fabric8
 * CRUD mock as the API server: webhook → filter (reservation + §6.2 annotations) → bind (node lock, bind-phase,
 * Binding) → the device plugin's release → the next pod → deletion frees the capacity. Plus the guarantees that
 * matter under kube-scheduler: no over-commit, idempotent bind, a re-filter moves the reservation.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExtenderEndToEndTest {

    /** {@code <RFC3339 time>,<namespace>,<name>} (spec §11.2). */
    private static final String RFC3339 = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})";

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
    }

    @Test
    void podGoesFromWebhookThroughFilterAndBindToItsNodeAndItsDeletionFreesTheCard(TestInfo test) {
        String ns = E2eCluster.namespaceOf(test.getTestMethod().orElseThrow().getName());
        String node = "life-node";
        cluster.registeredNode(node, gpu("GPU-life-0", 0, 32768));

        // webhook: the scheduler name is ours
        Pod a = cluster.admit(ns, "pod-a", "10000");
        assertThat(a.getSpec().getSchedulerName()).isEqualTo(E2eCluster.SCHEDULER);

        // filter: one node, the §6.2 annotations and label, written before the answer
        long before = Instant.now().getEpochSecond();
        E2eCluster.Reply filtered = cluster.filter(a, node, "no-such-node");
        assertThat(filtered.status()).isEqualTo(200);
        assertThat(filtered.contentType()).startsWith("application/json");
        assertThat(filtered.body()).isEqualTo("{\"Nodes\":null,\"NodeNames\":[\"" + node + "\"],\"FailedNodes\":null,"
                + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}");
        Pod annotated = cluster.pod(a);
        Map<String, String> annotations = annotated.getMetadata().getAnnotations();
        assertThat(annotations).containsOnlyKeys(HamiAnnotations.VGPU_NODE, HamiAnnotations.VGPU_TIME,
                HamiAnnotations.DEVICES_TO_ALLOCATE, HamiAnnotations.DEVICES_ALLOCATED);
        assertThat(annotations.get(HamiAnnotations.VGPU_NODE)).isEqualTo(node);
        assertThat(Long.parseLong(annotations.get(HamiAnnotations.VGPU_TIME)))
                .isBetween(before, Instant.now().getEpochSecond());
        assertThat(annotations.get(HamiAnnotations.DEVICES_TO_ALLOCATE)).isEqualTo("GPU-life-0,NVIDIA,10000,0:;");
        assertThat(annotations.get(HamiAnnotations.DEVICES_ALLOCATED)).isEqualTo("GPU-life-0,NVIDIA,10000,0:;");
        assertThat(annotated.getMetadata().getLabels()).containsEntry(HamiAnnotations.VGPU_NODE, node);
        List<MockApiServer.Request> patches = cluster.api().requests("PATCH", "/api/v1/namespaces/" + ns + "/pods/pod-a");
        assertThat(patches).hasSize(1);
        assertThat(patches.get(0).body()).isEqualTo("{\"metadata\":{\"annotations\":{"
                + "\"hami.io/vgpu-devices-allocated\":\"GPU-life-0,NVIDIA,10000,0:;\","
                + "\"hami.io/vgpu-devices-to-allocate\":\"GPU-life-0,NVIDIA,10000,0:;\","
                + "\"hami.io/vgpu-node\":\"" + node + "\",\"hami.io/vgpu-time\":\""
                + annotations.get(HamiAnnotations.VGPU_TIME) + "\"},\"labels\":{\"hami.io/vgpu-node\":\"" + node
                + "\"}}}");

        // bind: node lock, bind-phase, bind-time, then the Binding
        E2eCluster.Reply bound = cluster.bind(a, node);
        assertThat(bound.status()).isEqualTo(200);
        assertThat(bound.body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.nodeLock(node)).matches(Pattern.compile(RFC3339 + "," + ns + ",pod-a"));
        Pod boundPod = cluster.pod(a);
        assertThat(boundPod.getSpec().getNodeName()).isEqualTo(node);
        assertThat(boundPod.getMetadata().getAnnotations()).containsEntry(HamiAnnotations.BIND_PHASE, "allocating")
                .containsKey(HamiAnnotations.BIND_TIME);
        assertThat(cluster.api().bindings(ns)).containsExactly(
                new MockApiServer.BindingRequest(ns, "pod-a", a.getMetadata().getUid(), node, 201));

        // the device plugin allocates and releases the lock; the next pod on the node binds
        cluster.pluginAllocates(node, a);
        Pod b = cluster.admit(ns, "pod-b", "10000");
        assertThat(cluster.filter(b, node).json().path("NodeNames")).containsExactly(text(node));
        assertThat(cluster.bind(b, node).body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.nodeLock(node)).endsWith("," + ns + ",pod-b");

        // a third pod bound while pod-b still holds the lock waits, then binds once the plugin releases it
        Pod c = cluster.admit(ns, "pod-c", "10000");
        assertThat(cluster.filter(c, node).json().path("NodeNames")).containsExactly(text(node));
        CompletableFuture<E2eCluster.Reply> waiting = cluster.bindAsync(c, node);
        // the bind confirms and locks in one processor: while pod-b holds the lock neither is applied
        assertThat(waiting).isNotDone();
        assertThat(cluster.nodeState(node).charge(c.getMetadata().getUid())).isInstanceOf(PodCharge.Reserved.class);
        assertThat(cluster.pod(c).getSpec().getNodeName()).isNull();
        cluster.pluginAllocates(node, b);
        assertThat(E2eCluster.answered(waiting).body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.nodeLock(node)).endsWith("," + ns + ",pod-c");
        assertThat(cluster.pod(c).getSpec().getNodeName()).isEqualTo(node);
        cluster.pluginAllocates(node, c);

        // the card is full for a fourth 10000 MiB pod (30000 of 32768 used) until a pod is deleted
        Pod d = cluster.admit(ns, "pod-d", "10000");
        JsonNode refused = cluster.filter(d, node).json();
        assertThat(refused.path("NodeNames").isNull()).isTrue();
        assertThat(refused.path("FailedNodes").path(node).asText()).isNotEmpty();
        cluster.delete(a);
        cluster.eventually("pod-a's card share is freed", () -> cluster.filter(d, node).json().path("NodeNames")
                .path(0).asText("").equals(node));
        assertThat(cluster.bind(d, node).body()).isEqualTo("{\"Error\":\"\"}");
        cluster.pluginAllocates(node, d);
    }

    @Test
    void concurrentAndBackToBackFiltersForOneNodeNeverOvercommitItsCard(TestInfo test) {
        String ns = namespace(test);
        String node = "race-node";
        cluster.registeredNode(node, gpu("GPU-race-0", 0, 32768));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(cluster.admit(ns, "pod-" + i, "20000"));
        }

        // all at once: one 20000 MiB share fits a 32768 MiB card, whatever the interleaving
        List<CompletableFuture<E2eCluster.Reply>> concurrent = new ArrayList<>();
        pods.subList(0, 3).forEach(p -> concurrent.add(cluster.postAsync("/filter", cluster.filterBody(p, node))));
        List<JsonNode> answers = new ArrayList<>();
        concurrent.forEach(f -> answers.add(E2eCluster.answered(f).json()));
        // then back to back: each decided on a local view that may not show the previous reservation yet
        pods.subList(3, 6).forEach(p -> answers.add(cluster.filter(p, node).json()));

        assertThat(answers.stream().filter(a -> a.path("NodeNames").isArray())).hasSize(1);
        assertThat(answers).allSatisfy(a -> {
            assertThat(a.path("Error").asText()).isEmpty();
            if (!a.path("NodeNames").isArray()) {
                assertThat(a.path("FailedNodes").path(node).asText()).isNotEmpty();
            }
        });
        long annotated = pods.stream().map(cluster::pod)
                .filter(p -> p.getMetadata().getAnnotations() != null
                        && p.getMetadata().getAnnotations().containsKey(HamiAnnotations.VGPU_NODE)).count();
        assertThat(annotated).isEqualTo(1);
    }

    @Test
    void aRepeatedBindSucceedsWithoutASecondBinding(TestInfo test) {
        String ns = namespace(test);
        String node = "idem-node";
        cluster.registeredNode(node, gpu("GPU-idem-0", 0, 32768));
        Pod p = cluster.admit(ns, "pod", "20000");
        assertThat(cluster.filter(p, node).json().path("NodeNames")).containsExactly(text(node));
        assertThat(cluster.bind(p, node).body()).isEqualTo("{\"Error\":\"\"}");

        assertThat(cluster.bind(p, node).body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.api().bindings(ns)).hasSize(1);
        assertThat(cluster.nodeLock(node)).endsWith("," + ns + ",pod");
        cluster.pluginAllocates(node, p);
        assertThat(cluster.bind(p, node).body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.api().bindings(ns)).hasSize(1);
        assertThat(cluster.nodeLock(node)).isNull();
        assertThat(cluster.pod(p).getMetadata().getAnnotations()).containsEntry(HamiAnnotations.BIND_PHASE, "success");

        // charged once: a second 20000 MiB pod does not fit the 32768 MiB card
        Pod q = cluster.admit(ns, "other", "20000");
        assertThat(cluster.filter(q, node).json().path("FailedNodes").has(node)).isTrue();
    }

    @Test
    void reFilteringAPodMovesItsReservationAndNeverCompetesWithItself(TestInfo test) {
        String ns = namespace(test);
        cluster.registeredNode("move-x", gpu("GPU-move-x", 0, 32768));
        cluster.registeredNode("move-y", gpu("GPU-move-y", 0, 32768));
        Pod p = cluster.admit(ns, "pod", "20000");
        Pod q = cluster.admit(ns, "other", "20000");

        assertThat(cluster.filter(p, "move-x").json().path("NodeNames")).containsExactly(text("move-x"));
        // the same pod again on the same node: its own reservation is not counted against it
        assertThat(cluster.filter(cluster.pod(p), "move-x").json().path("NodeNames")).containsExactly(text("move-x"));
        assertThat(cluster.filter(q, "move-x").json().path("FailedNodes").has("move-x")).isTrue();

        // moved to move-y: the reservation on move-x is released, so another pod fits there now
        assertThat(cluster.filter(cluster.pod(p), "move-y").json().path("NodeNames")).containsExactly(text("move-y"));
        assertThat(cluster.pod(p).getMetadata().getAnnotations()).containsEntry(HamiAnnotations.VGPU_NODE, "move-y");
        cluster.eventually("move-x freed", () -> cluster.filter(q, "move-x").json().path("NodeNames").isArray());
        assertThat(cluster.bind(cluster.pod(q), "move-x").body()).isEqualTo("{\"Error\":\"\"}");
        assertThat(cluster.bind(cluster.pod(p), "move-y").body()).isEqualTo("{\"Error\":\"\"}");
    }

    private static String namespace(TestInfo test) {
        return E2eCluster.namespaceOf(test.getTestMethod().orElseThrow().getName());
    }

    private static TextNode text(String s) {
        return TextNode.valueOf(s);
    }
}
