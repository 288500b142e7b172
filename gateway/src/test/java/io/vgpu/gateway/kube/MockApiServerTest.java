package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/** The fixture's own contract: binding semantics and fault injection on top of the CRUD mock. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MockApiServerTest {

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private String ns;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        api = kube.api();
    }

    @AfterAll
    static void stopServer() {
        kube.close();
    }

    @BeforeEach
    void namespace(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
    }

    @Test
    void bindingSetsNodeNameAndIsRecorded(Vertx vertx, VertxTestContext ctx) {
        Pod created = client.resource(pod(ns, "p").build()).create();

        finishOnWorker(ctx, vertx, step(api.post(KubePaths.binding(ns, "p"),
                binding("p", created.getMetadata().getUid(), "n1"), KubeApi.Priority.NORMAL)), r -> {
            assertThat(r.status()).isEqualTo(201);
            assertThat(nodeNameOf("p")).isEqualTo("n1");
            assertThat(server.bindings(ns)).containsExactly(new MockApiServer.BindingRequest(ns, "p",
                    created.getMetadata().getUid(), "n1", 201));
        });
    }

    @Test
    void bindingToTheSameNodeAgainIsIdempotent(VertxTestContext ctx) {
        client.resource(pod(ns, "p").boundTo("n1").build()).create();

        finish(ctx, step(api.post(KubePaths.binding(ns, "p"), binding("p", "", "n1"), KubeApi.Priority.NORMAL)),
                r -> assertThat(r.status()).isEqualTo(201));
    }

    @Test
    void bindingAPodBoundElsewhereConflicts(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "p").boundTo("n1").build()).create();

        finishOnWorker(ctx, vertx, step(api.post(KubePaths.binding(ns, "p"), binding("p", "", "n2"),
                KubeApi.Priority.NORMAL)), r -> {
            assertThat(r.status()).isEqualTo(409);
            assertThat(r.error()).contains("already assigned to node \"n1\"");
            assertThat(nodeNameOf("p")).isEqualTo("n1");
        });
    }

    @Test
    void bindingWithAnotherUidConflicts(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "p").build()).create();

        finishOnWorker(ctx, vertx, step(api.post(KubePaths.binding(ns, "p"), binding("p", "not-the-uid", "n1"),
                KubeApi.Priority.NORMAL)), r -> {
            assertThat(r.status()).isEqualTo(409);
            assertThat(nodeNameOf("p")).isNull();
        });
    }

    @Test
    void bindingAMissingPodIsNotFound(VertxTestContext ctx) {
        finish(ctx, step(api.post(KubePaths.binding(ns, "ghost"), binding("ghost", "", "n1"),
                KubeApi.Priority.NORMAL)), r -> {
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.error()).isEqualTo("pods \"ghost\" not found");
        });
    }

    @Test
    void staleResourceVersionInAMergePatchConflicts(VertxTestContext ctx) {
        Pod created = client.resource(pod(ns, "p").build()).create();
        String rv = created.getMetadata().getResourceVersion();
        client.pods().inNamespace(ns).withName("p").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");

        finish(ctx, step(api.mergePatch(KubePaths.pod(ns, "p"),
                "{\"metadata\":{\"labels\":{\"y\":\"1\"},\"resourceVersion\":\"" + rv + "\"}}")),
                r -> assertThat(r.status()).isEqualTo(409));
    }

    @Test
    void aLostResponseStillAppliesTheWrite(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "p").build()).create();
        server.loseNextResponse("PATCH", KubePaths.pod(ns, "p"));

        finishOnWorker(ctx, vertx, step(api.mergePatch(KubePaths.pod(ns, "p"),
                "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}")), r -> {
            assertThat(r.status()).isEqualTo(500);
            assertThat(client.pods().inNamespace(ns).withName("p").get().getMetadata().getLabels())
                    .containsEntry("x", "1");
        });
    }

    @Test
    void podFieldSelectorOnSchedulerNameIsHonoured() {
        client.resource(pod(ns, "ours").scheduler("hami-scheduler").build()).create();
        client.resource(pod(ns, "theirs").build()).create();

        var names = client.pods().inNamespace(ns).withField("spec.schedulerName", "hami-scheduler").list().getItems()
                .stream().map(p -> p.getMetadata().getName()).toList();

        assertThat(names).containsExactly("ours");
    }

    private String nodeNameOf(String name) {
        return client.pods().inNamespace(ns).withName(name).get().getSpec().getNodeName();
    }

    private static String binding(String pod, String uid, String node) {
        return KubePodWriter.bindingBody(new io.vgpu.gateway.core.port.PodAddress("ignored", pod, uid), node);
    }
}
