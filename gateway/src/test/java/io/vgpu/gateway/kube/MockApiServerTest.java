package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

/** The fixture's own contract: binding semantics and fault injection on top of the CRUD mock. */
class MockApiServerTest {

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private String ns;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
    }

    @AfterAll
    static void stopServer() {
        api.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void namespace(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
    }

    @Test
    void bindingSetsNodeNameAndIsRecorded() {
        Pod created = client.resource(pod(ns, "p").build()).create();

        ApiResponse r = await(api.post(KubePaths.binding(ns, "p"), binding("p", created.getMetadata().getUid(), "n1"),
                KubeApi.Priority.NORMAL));

        assertThat(r.status()).isEqualTo(201);
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isEqualTo("n1");
        assertThat(server.bindings(ns)).containsExactly(new MockApiServer.BindingRequest(ns, "p",
                created.getMetadata().getUid(), "n1", 201));
    }

    @Test
    void bindingToTheSameNodeAgainIsIdempotent() {
        client.resource(pod(ns, "p").boundTo("n1").build()).create();

        assertThat(await(api.post(KubePaths.binding(ns, "p"), binding("p", "", "n1"), KubeApi.Priority.NORMAL))
                .status()).isEqualTo(201);
    }

    @Test
    void bindingAPodBoundElsewhereConflicts() {
        client.resource(pod(ns, "p").boundTo("n1").build()).create();

        ApiResponse r = await(api.post(KubePaths.binding(ns, "p"), binding("p", "", "n2"), KubeApi.Priority.NORMAL));

        assertThat(r.status()).isEqualTo(409);
        assertThat(r.error()).contains("already assigned to node \"n1\"");
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isEqualTo("n1");
    }

    @Test
    void bindingWithAnotherUidConflicts() {
        client.resource(pod(ns, "p").build()).create();

        ApiResponse r = await(api.post(KubePaths.binding(ns, "p"), binding("p", "not-the-uid", "n1"),
                KubeApi.Priority.NORMAL));

        assertThat(r.status()).isEqualTo(409);
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void bindingAMissingPodIsNotFound() {
        ApiResponse r = await(api.post(KubePaths.binding(ns, "ghost"), binding("ghost", "", "n1"),
                KubeApi.Priority.NORMAL));

        assertThat(r.status()).isEqualTo(404);
        assertThat(r.error()).isEqualTo("pods \"ghost\" not found");
    }

    @Test
    void staleResourceVersionInAMergePatchConflicts() {
        Pod created = client.resource(pod(ns, "p").build()).create();
        String rv = created.getMetadata().getResourceVersion();
        client.pods().inNamespace(ns).withName("p").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");

        ApiResponse r = await(api.mergePatch(KubePaths.pod(ns, "p"),
                "{\"metadata\":{\"labels\":{\"y\":\"1\"},\"resourceVersion\":\"" + rv + "\"}}"));

        assertThat(r.status()).isEqualTo(409);
    }

    @Test
    void aLostResponseStillAppliesTheWrite() {
        client.resource(pod(ns, "p").build()).create();
        server.loseNextResponse("PATCH", KubePaths.pod(ns, "p"));

        ApiResponse r = await(api.mergePatch(KubePaths.pod(ns, "p"), "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}"));

        assertThat(r.status()).isEqualTo(500);
        assertThat(client.pods().inNamespace(ns).withName("p").get().getMetadata().getLabels()).containsEntry("x", "1");
    }

    @Test
    void podFieldSelectorOnSchedulerNameIsHonoured() {
        client.resource(pod(ns, "ours").scheduler("hami-scheduler").build()).create();
        client.resource(pod(ns, "theirs").build()).create();

        var names = client.pods().inNamespace(ns).withField("spec.schedulerName", "hami-scheduler").list().getItems()
                .stream().map(p -> p.getMetadata().getName()).toList();

        assertThat(names).containsExactly("ours");
    }

    private static String binding(String pod, String uid, String node) {
        return KubePodWriter.bindingBody(new io.vgpu.gateway.core.port.PodAddress("ignored", pod, uid), node);
    }
}
