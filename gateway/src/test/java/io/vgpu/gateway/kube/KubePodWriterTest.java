package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class KubePodWriterTest {

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private static KubePodWriter writer;
    private String ns;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
        writer = new KubePodWriter(api);
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
    void filterPatchSendsHamisExactBodyAndLandsOnThePod() {
        PodAddress key = create("p");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, "node2");
        annotations.put(HamiAnnotations.VGPU_TIME, "1724220039");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA,3000,0:;");
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, "GPU-a,NVIDIA,3000,0:;");

        WriteOutcome outcome = await(writer.patchFilterAnnotations(key, annotations,
                Map.of(HamiAnnotations.VGPU_NODE, "node2")));

        assertThat(outcome.ok()).isTrue();
        MockApiServer.Request sent = server.requests("PATCH", KubePaths.pod(ns, "p")).get(0);
        assertThat(sent.contentType()).startsWith("application/merge-patch+json");
        assertThat(sent.body()).isEqualTo("{\"metadata\":{\"annotations\":{"
                + "\"hami.io/vgpu-devices-allocated\":\"GPU-a,NVIDIA,3000,0:;\","
                + "\"hami.io/vgpu-devices-to-allocate\":\"GPU-a,NVIDIA,3000,0:;\","
                + "\"hami.io/vgpu-node\":\"node2\",\"hami.io/vgpu-time\":\"1724220039\"},"
                + "\"labels\":{\"hami.io/vgpu-node\":\"node2\"}}}");
        Pod stored = client.pods().inNamespace(ns).withName("p").get();
        assertThat(stored.getMetadata().getAnnotations()).containsAllEntriesOf(annotations);
        assertThat(stored.getMetadata().getLabels()).containsEntry(HamiAnnotations.VGPU_NODE, "node2");
    }

    @Test
    void bindPhasePatchSendsHamisExactBody() {
        PodAddress key = create("p");

        assertThat(await(writer.patchBindPhase(key, "allocating", 1724220040L)).ok()).isTrue();

        assertThat(server.requests("PATCH", KubePaths.pod(ns, "p")).get(0).body()).isEqualTo(
                "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"allocating\",\"hami.io/bind-time\":\"1724220040\"}}}");
        assertThat(client.pods().inNamespace(ns).withName("p").get().getMetadata().getAnnotations())
                .containsEntry(HamiAnnotations.BIND_PHASE, "allocating")
                .containsEntry(HamiAnnotations.BIND_TIME, "1724220040");
    }

    @Test
    void patchOfAMissingPodIsRefusedWithTheApiText() {
        WriteOutcome outcome = await(writer.patchBindPhase(new PodAddress(ns, "ghost", ""), "allocating", 1L));

        assertThat(outcome).isInstanceOf(WriteOutcome.Refused.class);
        assertThat(((WriteOutcome.Refused) outcome).notFound()).isTrue();
        assertThat(outcome.message()).isEqualTo("pods \"ghost\" not found");
    }

    @Test
    void bindPostsTheBindingSubresourceWithTheUid() {
        PodAddress key = create("p");

        BindingOutcome outcome = await(writer.bind(key, "n1"));

        assertThat(outcome).isEqualTo(new BindingOutcome.Bound(false));
        assertThat(server.bindings(ns)).containsExactly(new MockApiServer.BindingRequest(ns, "p", key.uid(), "n1", 201));
        assertThat(server.requests("POST", KubePaths.binding(ns, "p")).get(0).body()).isEqualTo(
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\",\"namespace\":\"" + ns
                        + "\",\"uid\":\"" + key.uid() + "\"},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\"}}");
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isEqualTo("n1");
    }

    @Test
    void aRetriedBindThatTheApiServerRefusesAsAlreadyAssignedIsAlreadyBound() {
        PodAddress key = create("p");
        await(writer.bind(key, "n1"));
        // a real API server answers 409 to any binding of a bound pod, even to the same node
        server.failNext("POST", KubePaths.binding(ns, "p"), 409,
                "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n1\"");

        assertThat(await(writer.bind(key, "n1"))).isEqualTo(new BindingOutcome.Bound(true));
    }

    @Test
    void aPodBoundToAnotherNodeIsBoundElsewhere() {
        PodAddress key = create("p");
        await(writer.bind(key, "n1"));

        BindingOutcome outcome = await(writer.bind(key, "n2"));

        assertThat(outcome).isInstanceOfSatisfying(BindingOutcome.BoundElsewhere.class, e -> {
            assertThat(e.node()).isEqualTo("n1");
            assertThat(e.message()).contains("already assigned to node \"n1\"");
        });
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isEqualTo("n1");
    }

    @Test
    void aBindWhoseAnswerIsLostReportsNoAnswerButTheRetrySucceeds() {
        PodAddress key = create("p");
        server.loseNextResponse("POST", KubePaths.binding(ns, "p"));

        BindingOutcome lost = await(writer.bind(key, "n1"));
        BindingOutcome retried = await(writer.bind(key, "n1"));

        assertThat(lost).isInstanceOf(BindingOutcome.Failed.class);
        assertThat(retried.ok()).isTrue();
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isEqualTo("n1");
    }

    @Test
    void bindingAMissingPodFails() {
        BindingOutcome outcome = await(writer.bind(new PodAddress(ns, "ghost", "u"), "n1"));

        assertThat(outcome).isInstanceOf(BindingOutcome.Failed.class);
        assertThat(outcome.message()).isEqualTo("pods \"ghost\" not found");
    }

    @Test
    void bindingARecreatedPodOfTheSameNameFails() {
        create("p");

        BindingOutcome outcome = await(writer.bind(new PodAddress(ns, "p", "uid-of-an-older-pod"), "n1"));

        assertThat(outcome).isInstanceOf(BindingOutcome.Failed.class);
        assertThat(client.pods().inNamespace(ns).withName("p").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void readPodReadsTheApiServerTrimmedLikeTheInformers() {
        PodAddress key = create("p");

        ObservedPod unbound = await(writer.readPod(key)).orElseThrow();
        assertThat(unbound.key()).isEqualTo(key);
        assertThat(unbound.boundNode()).isEmpty();
        assertThat(unbound.spec().containers()).extracting(c -> c.name()).containsExactly("main");
        await(writer.bind(key, "n1"));
        assertThat(await(writer.readPod(key)).orElseThrow().boundNode()).isEqualTo("n1");
    }

    @Test
    void readPodIsEmptyForAMissingPodAnotherIncarnationOrAFailedRead() {
        create("p");

        assertThat(await(writer.readPod(new PodAddress(ns, "ghost", "u")))).isEmpty();
        assertThat(await(writer.readPod(new PodAddress(ns, "p", "uid-of-an-older-pod")))).isEmpty();
        server.failNext("GET", KubePaths.pod(ns, "p"), 500, "etcd is down");
        assertThat(await(writer.readPod(new PodAddress(ns, "p", "")))).isEmpty();
    }

    private PodAddress create(String name) {
        Pod created = client.resource(pod(ns, name).build()).create();
        return new PodAddress(ns, name, created.getMetadata().getUid());
    }
}
