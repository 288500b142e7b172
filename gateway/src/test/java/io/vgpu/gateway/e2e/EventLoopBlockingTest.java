package io.vgpu.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.e2e.E2eCluster.gpu;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing heavy runs on the gateway's event loops: with Vert.x's blocked-thread checker tightened to 200 ms (checked
 * every 50 ms), inputs that take seconds of CPU (an AdmissionReview of 50,000 containers, a filter of a pod with
 * 10,000 containers) and a credential refresh whose exec plugin takes a second (the Kubernetes client re-reads the
 * kubeconfig after a 401) are all answered without one blocked-thread warning. Start-up (class loading) is not
 * judged: each test collects the warnings of its own requests only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EventLoopBlockingTest {

    private static final long LIMIT_MILLIS = 200;
    private static final String NS = "event-loop";
    private static final String NODE = "loop-node";

    private static Path plugin;
    private static Path invocations;
    private static BlockedThreadWarnings warnings;
    private static E2eCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        invocations = Files.createTempFile("vgpu-exec-plugin", ".log");
        plugin = Files.createTempFile("vgpu-exec-plugin", ".sh");
        // a credential plugin as slow as a cloud provider's: every run takes a second
        Files.writeString(plugin, """
                #!/bin/sh
                echo run >> %s
                sleep 1
                echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t-%s"}}'
                """.formatted(invocations, "$$"));
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
        VertxOptions strict = new VertxOptions()
                .setMaxEventLoopExecuteTime(LIMIT_MILLIS).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(50).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
                .setWarningExceptionTime(LIMIT_MILLIS).setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS);
        String user = "{exec: {apiVersion: client.authentication.k8s.io/v1, command: " + plugin
                + ", interactiveMode: Never}}";
        warnings = BlockedThreadWarnings.attach(LIMIT_MILLIS);
        cluster = E2eCluster.start(new E2eCluster.Launch(strict, user));
        cluster.registeredNode(NODE, gpu("GPU-loop-0", 0, 32768), gpu("GPU-loop-1", 1, 32768));
        // warm up every path once (class loading is not what this test judges)
        Pod warm = cluster.admit(NS, "warm", "1000");
        assertThat(cluster.filter(warm, NODE).json().path("NodeNames").path(0).asText()).isEqualTo(NODE);
        assertThat(cluster.bind(warm, NODE).body()).isEqualTo("{\"Error\":\"\"}");
        cluster.pluginAllocates(NODE, warm);
        assertThat(cluster.post("/webhook", review(10)).status()).isEqualTo(200);
    }

    @BeforeEach
    void forgetEarlierWarnings() {
        warnings.clear();
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (warnings != null) {
                warnings.close();
            }
            Files.deleteIfExists(plugin);
            Files.deleteIfExists(invocations);
        }
    }

    @Test
    void anAdmissionReviewOfFiftyThousandContainersBlocksNoEventLoop() {
        String body = review(50_000);
        assertThat(body.length()).isGreaterThan(4 * 1024 * 1024);

        E2eCluster.Reply reply = cluster.post("/webhook", body);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("response").path("allowed").asBoolean()).as(reply.body()).isTrue();
        assertThat(warnings.warnings()).isEmpty();
    }

    @Test
    void aFilterOfAPodWithTenThousandContainersBlocksNoEventLoop() {
        ObjectNode args = E2eCluster.JSON.createObjectNode();
        args.set("Pod", pod(10_000, UUID.randomUUID().toString()));
        ArrayNode names = args.putArray("NodeNames");
        names.add(NODE);
        for (int i = 0; i < 2_000; i++) {
            names.add("absent-" + i);
        }
        String body = args.toString();
        assertThat(body.length()).isBetween(700 * 1024, 1024 * 1024);

        E2eCluster.Reply reply = cluster.post("/filter", body);

        assertThat(reply.status()).isEqualTo(200);
        // ten thousand GPU containers fit no node; every listed node is named with its reason
        assertThat(reply.json().path("Error").asText()).isEmpty();
        assertThat(reply.json().path("FailedNodes").size()).isEqualTo(2_001);
        assertThat(warnings.warnings()).isEmpty();
    }

    @Test
    void aCredentialRefreshAfterA401RunsItsSlowPluginOffTheEventLoop() throws IOException {
        int runsBefore = Files.readAllLines(invocations).size();
        Pod ghost = E2eCluster.pod(NS, "ghost", "1000").editMetadata().withUid(UUID.randomUUID().toString())
                .endMetadata().build();
        // the bind reads the unknown pod live; the API server refuses the token once
        cluster.api().failNext("GET", "/api/v1/namespaces/" + NS + "/pods/ghost", 401, "Unauthorized");

        E2eCluster.Reply reply = cluster.bind(ghost, NODE);

        assertThat(reply.body()).isEqualTo("{\"Error\":\"pod \\\"ghost\\\" not found\"}");
        assertThat(Files.readAllLines(invocations).size()).as("exec plugin runs").isGreaterThan(runsBefore);
        assertThat(warnings.warnings()).isEmpty();
    }

    /** An AdmissionReview (v1, CREATE) of a pod with {@code containers} containers, each asking for a GPU slice. */
    private static String review(int containers) {
        ObjectNode review = E2eCluster.JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.putObject("request").put("uid", UUID.randomUUID().toString()).put("namespace", NS)
                .put("operation", "CREATE").set("object", pod(containers, ""));
        return review.toString();
    }

    private static JsonNode pod(int containers, String uid) {
        ObjectNode pod = E2eCluster.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata").put("name", "big-" + containers).put("namespace", NS);
        if (!uid.isEmpty()) {
            meta.put("uid", uid);
        }
        ObjectNode spec = pod.putObject("spec").put("schedulerName", E2eCluster.SCHEDULER);
        ArrayNode list = spec.putArray("containers");
        for (int i = 0; i < containers; i++) {
            ObjectNode c = list.addObject().put("name", "c" + i).put("image", "cuda");
            c.putObject("resources").putObject("limits").put("nvidia.com/gpu", "1")
                    .put("nvidia.com/gpumem", i == 0 ? "1000" : "1");
        }
        return pod;
    }
}
