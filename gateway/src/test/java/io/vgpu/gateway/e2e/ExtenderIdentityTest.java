package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vgpu.state.model.NodeState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Identities are checked before anything changes: a {@code /bind} whose {@code PodUID} is empty, is not a
 * Kubernetes UID, or is not the pod's, is refused with an {@code Error} that says so and leaves the node's charges,
 * its lock and the pod as they were (no Binding is attempted); pod, namespace and node names that are no valid
 * Kubernetes names are refused by {@code /bind}, {@code /filter} and the webhook before any API call.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExtenderIdentityTest {

    private static final String NS = "identity";
    private static final AtomicInteger NODES = new AtomicInteger();

    @RegisterExtension
    static final E2eGateway GATEWAY = new E2eGateway();

    private static E2eCluster cluster;

    @BeforeAll
    static void cluster() {
        cluster = GATEWAY.cluster();
    }

    static Stream<Named<String>> wrongUids() {
        return Stream.of(Named.of("empty", ""), Named.of("not a UID", "u-1"),
                Named.of("a UID with a tail", UUID.randomUUID() + "x"),
                Named.of("a UID with a path", "../" + UUID.randomUUID()),
                Named.of("another pod's UID", UUID.randomUUID().toString()));
    }

    @ParameterizedTest(name = "PodUID {0}")
    @MethodSource("wrongUids")
    void aBindWithAWrongPodUidIsRefusedAndChangesNothing(String uid) {
        String node = node();
        Pod pod = filtered(node);
        NodeState before = cluster.nodeState(node);
        int bindings = cluster.api().bindings(NS).size();

        E2eCluster.Reply reply = cluster.post("/bind", bindBody(pod.getMetadata().getName(), NS, uid, node));

        assertThat(reply.status()).isEqualTo(200);
        String error = reply.json().path("Error").asText();
        assertThat(error).contains("PodUID");
        if (uid.isEmpty()) {
            assertThat(error).contains("empty");
        } else {
            assertThat(error).contains(uid);
        }
        assertThat(cluster.nodeState(node)).as("charges and lock of " + node).isEqualTo(before);
        assertThat(cluster.api().bindings(NS)).hasSize(bindings);
        assertThat(cluster.nodeLock(node)).isNull();
        assertThat(cluster.pod(pod).getSpec().getNodeName()).isNull();
        // the right UID still binds: nothing was taken from the pod
        assertThat(cluster.bind(pod, node).body()).isEqualTo("{\"Error\":\"\"}");
        cluster.pluginAllocates(node, pod);
    }

    static Stream<Named<String[]>> invalidNames() {
        return Stream.of(
                Named.of("pod name with an upper-case letter", new String[] {"Bad", NS}),
                Named.of("pod name with an underscore", new String[] {"bad_name", NS}),
                Named.of("pod name with a slash", new String[] {"a/b", NS}),
                Named.of("pod name with a query", new String[] {"a?watch=1", NS}),
                Named.of("pod name with a space", new String[] {"a b", NS}),
                Named.of("pod name ..", new String[] {"..", NS}),
                Named.of("pod name with unicode", new String[] {"pöd", NS}),
                Named.of("empty pod name", new String[] {"", NS}),
                Named.of("pod name of 254 characters", new String[] {"a".repeat(254), NS}),
                Named.of("namespace with a dot", new String[] {"p", "a.b"}),
                Named.of("namespace of 64 characters", new String[] {"p", "n".repeat(64)}),
                Named.of("namespace with a slash", new String[] {"p", "identity/pods/x"}),
                Named.of("empty namespace", new String[] {"p", ""}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidNames")
    void bindRefusesInvalidNamesBeforeAnyApiCall(String[] name) {
        String node = node();
        int requests = cluster.api().requests().size();

        E2eCluster.Reply reply = cluster.post("/bind", bindBody(name[0], name[1], UUID.randomUUID().toString(),
                node));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("Error").asText()).contains(name[0].equals("p") ? "PodNamespace" : "PodName")
                .containsPattern("RFC 1123|must be no more than");
        assertThat(apiCallsSince(requests, name)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidNames")
    void filterRefusesInvalidNamesBeforeAnyApiCallOrReservation(String[] name) {
        String node = node();
        int requests = cluster.api().requests().size();
        Pod pod = E2eCluster.pod(name[1], name[0], "1000").editMetadata().withUid(UUID.randomUUID().toString())
                .endMetadata().editSpec().withSchedulerName(E2eCluster.SCHEDULER).endSpec().build();

        E2eCluster.Reply reply = cluster.filter(pod, node);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("NodeNames").isNull()).isTrue();
        assertThat(reply.json().path("Error").asText()).contains(name[0].equals("p") ? "namespace" : "name")
                .containsPattern("RFC 1123|must be no more than");
        assertThat(cluster.nodeState(node).charges()).isEmpty();
        assertThat(apiCallsSince(requests, name)).isEmpty();
    }

    @Test
    void filterRefusesAPodWithoutAUsableUidBeforeReserving() {
        String node = node();
        for (String uid : List.of("", "u-1")) {
            int requests = cluster.api().requests().size();
            Pod pod = E2eCluster.pod(NS, "anonymous", "1000").editMetadata().withUid(uid).endMetadata()
                    .editSpec().withSchedulerName(E2eCluster.SCHEDULER).endSpec().build();

            E2eCluster.Reply reply = cluster.filter(pod, node);

            assertThat(reply.json().path("Error").asText()).as(uid).contains("metadata.uid");
            assertThat(cluster.nodeState(node).charges()).as(uid).isEmpty();
            assertThat(apiCallsSince(requests, new String[] {"anonymous", ""})).as(uid).isEmpty();
        }
    }

    @Test
    void theWebhookRefusesAnInvalidNamespace() {
        ObjectNode review = E2eCluster.JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.putObject("request").put("uid", "r-1").put("namespace", "Not_A_Namespace")
                .put("operation", "CREATE").set("object", E2eCluster.tree(cluster.kube().getKubernetesSerialization()
                        .asJson(E2eCluster.pod("Not_A_Namespace", "p", "1000").build())));

        E2eCluster.Reply reply = cluster.post("/webhook", review.toString());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("response").path("uid").asText()).isEqualTo("r-1");
        assertThat(reply.json().path("response").path("allowed").asBoolean()).isFalse();
        assertThat(reply.json().path("response").path("status").path("code").asInt()).isEqualTo(400);
        assertThat(reply.json().path("response").path("status").path("message").asText()).contains("namespace")
                .contains("RFC 1123");
    }

    // ------------------------------------------------------------------ helpers

    private static String node() {
        String node = "identity-" + NODES.incrementAndGet();
        cluster.registeredNode(node, gpu("GPU-" + node, 0, 32768));
        return node;
    }

    private static Pod filtered(String node) {
        Pod p = cluster.admit(NS, node + "-p", "1000");
        assertThat(cluster.filter(p, node).json().path("NodeNames").path(0).asText()).isEqualTo(node);
        return cluster.pod(p);
    }

    private static String bindBody(String name, String namespace, String uid, String node) {
        return E2eCluster.JSON.createObjectNode().put("PodName", name).put("PodNamespace", namespace)
                .put("PodUID", uid).put("Node", node).toString();
    }

    /** The API requests since {@code from} that name the pod or its namespace (other tests' traffic aside). */
    private static List<String> apiCallsSince(int from, String[] name) {
        List<io.vgpu.gateway.kube.MockApiServer.Request> all = cluster.api().requests();
        return all.subList(Math.min(from, all.size()), all.size()).stream()
                .map(r -> r.method() + " " + r.path())
                .filter(p -> !name[0].isEmpty() && p.contains("/pods/" + name[0].split("[/?]")[0])
                        || !name[1].isEmpty() && p.contains("/namespaces/" + name[1].split("[/?]")[0] + "/"))
                .toList();
    }
}
