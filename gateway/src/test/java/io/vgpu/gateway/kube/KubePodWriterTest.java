package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.port.BindingOutcome;
import io.vgpu.gateway.core.port.LiveRead;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubePodWriterTest {

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubePodWriter writer;
    private String ns;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        writer = new KubePodWriter(kube.api());
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
    void filterPatchSendsHamisExactBodyAndLandsOnThePod(Vertx vertx, VertxTestContext ctx) {
        PodAddress key = create("p");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(HamiAnnotations.VGPU_NODE, "node2");
        annotations.put(HamiAnnotations.VGPU_TIME, "1724220039");
        annotations.put(HamiAnnotations.DEVICES_TO_ALLOCATE, "GPU-a,NVIDIA,3000,0:;");
        annotations.put(HamiAnnotations.DEVICES_ALLOCATED, "GPU-a,NVIDIA,3000,0:;");

        finishOnWorker(ctx, vertx, step(writer.patchFilterAnnotations(key, annotations,
                Map.of(HamiAnnotations.VGPU_NODE, "node2"))), outcome -> {
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
        });
    }

    @Test
    void bindPhasePatchSendsHamisExactBody(Vertx vertx, VertxTestContext ctx) {
        PodAddress key = create("p");

        finishOnWorker(ctx, vertx, step(writer.patchBindPhase(key, "allocating", 1724220040L)), outcome -> {
            assertThat(outcome.ok()).isTrue();
            assertThat(server.requests("PATCH", KubePaths.pod(ns, "p")).get(0).body()).isEqualTo(
                    "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"allocating\",\"hami.io/bind-time\":\"1724220040\"}}}");
            assertThat(client.pods().inNamespace(ns).withName("p").get().getMetadata().getAnnotations())
                    .containsEntry(HamiAnnotations.BIND_PHASE, "allocating")
                    .containsEntry(HamiAnnotations.BIND_TIME, "1724220040");
        });
    }

    @Test
    void patchOfAMissingPodIsRefusedWithTheApiText(VertxTestContext ctx) {
        finish(ctx, step(writer.patchBindPhase(new PodAddress(ns, "ghost", ""), "allocating", 1L)), outcome -> {
            assertThat(outcome).isInstanceOf(WriteOutcome.Refused.class);
            assertThat(((WriteOutcome.Refused) outcome).notFound()).isTrue();
            assertThat(outcome.message()).isEqualTo("pods \"ghost\" not found");
        });
    }

    @Test
    void bindPostsTheBindingSubresourceWithTheUid(Vertx vertx, VertxTestContext ctx) {
        PodAddress key = create("p");

        finishOnWorker(ctx, vertx, step(writer.bind(key, "n1")), outcome -> {
            assertThat(outcome).isEqualTo(new BindingOutcome.Bound(false));
            assertThat(server.bindings(ns)).containsExactly(
                    new MockApiServer.BindingRequest(ns, "p", key.uid(), "n1", 201));
            assertThat(server.requests("POST", KubePaths.binding(ns, "p")).get(0).body()).isEqualTo(
                    "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\",\"namespace\":\"" + ns
                            + "\",\"uid\":\"" + key.uid() + "\"},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\"}}");
            assertThat(nodeNameOf("p")).isEqualTo("n1");
        });
    }

    @Test
    void aRetriedBindThatTheApiServerRefusesAsAlreadyAssignedIsAlreadyBound(VertxTestContext ctx) {
        PodAddress key = create("p");

        Future<BindingOutcome> retried = step(writer.bind(key, "n1")).compose(first -> {
            // a real API server answers 409 to any binding of a bound pod, even to the same node
            server.failNext("POST", KubePaths.binding(ns, "p"), 409,
                    "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n1\"");
            return step(writer.bind(key, "n1"));
        });

        finish(ctx, retried, outcome -> assertThat(outcome).isEqualTo(new BindingOutcome.Bound(true)));
    }

    @Test
    void aPodBoundToAnotherNodeIsBoundElsewhere(Vertx vertx, VertxTestContext ctx) {
        PodAddress key = create("p");

        Future<BindingOutcome> elsewhere = step(writer.bind(key, "n1")).compose(first -> step(writer.bind(key, "n2")));

        finishOnWorker(ctx, vertx, elsewhere, outcome -> {
            assertThat(outcome).isInstanceOfSatisfying(BindingOutcome.BoundElsewhere.class, e -> {
                assertThat(e.node()).isEqualTo("n1");
                assertThat(e.message()).contains("already assigned to node \"n1\"");
            });
            assertThat(nodeNameOf("p")).isEqualTo("n1");
        });
    }

    @Test
    void aBindWhoseAnswerIsLostReportsNoAnswerButTheRetrySucceeds(Vertx vertx, VertxTestContext ctx) {
        PodAddress key = create("p");
        server.loseNextResponse("POST", KubePaths.binding(ns, "p"));

        Future<BindingOutcome> retried = step(writer.bind(key, "n1")).compose(lost -> {
            assertThat(lost).isInstanceOf(BindingOutcome.Failed.class);
            return step(writer.bind(key, "n1"));
        });

        finishOnWorker(ctx, vertx, retried, outcome -> {
            assertThat(outcome.ok()).isTrue();
            assertThat(nodeNameOf("p")).isEqualTo("n1");
        });
    }

    @Test
    void bindingAMissingPodFails(VertxTestContext ctx) {
        finish(ctx, step(writer.bind(new PodAddress(ns, "ghost", "u"), "n1")), outcome -> {
            assertThat(outcome).isInstanceOf(BindingOutcome.Failed.class);
            assertThat(outcome.message()).isEqualTo("pods \"ghost\" not found");
        });
    }

    @Test
    void bindingARecreatedPodOfTheSameNameFails(Vertx vertx, VertxTestContext ctx) {
        create("p");

        finishOnWorker(ctx, vertx, step(writer.bind(new PodAddress(ns, "p", "uid-of-an-older-pod"), "n1")), outcome -> {
            assertThat(outcome).isInstanceOf(BindingOutcome.Failed.class);
            assertThat(nodeNameOf("p")).isNull();
        });
    }

    @Test
    void readPodReadsTheApiServerTrimmedLikeTheInformers(VertxTestContext ctx) {
        PodAddress key = create("p");

        Future<Optional<ObservedPod>> afterBind = step(writer.readPod(key)).compose(read -> {
            ObservedPod unbound = read.orElseThrow();
            assertThat(unbound.key()).isEqualTo(key);
            assertThat(unbound.boundNode()).isEmpty();
            assertThat(unbound.spec().containers()).extracting(c -> c.name()).containsExactly("main");
            return step(writer.bind(key, "n1"));
        }).compose(bound -> step(writer.readPod(key)));

        finish(ctx, afterBind, read -> assertThat(read.orElseThrow().boundNode()).isEqualTo("n1"));
    }

    @Test
    void readPodIsEmptyForAMissingPodAnotherIncarnationOrAFailedRead(VertxTestContext ctx) {
        create("p");

        Future<Optional<ObservedPod>> failedRead = step(writer.readPod(new PodAddress(ns, "ghost", "u")))
                .compose(ghost -> {
                    assertThat(ghost).as("a missing pod").isEmpty();
                    return step(writer.readPod(new PodAddress(ns, "p", "uid-of-an-older-pod")));
                }).compose(older -> {
                    assertThat(older).as("another incarnation").isEmpty();
                    server.failNext("GET", KubePaths.pod(ns, "p"), 500, "etcd is down");
                    return step(writer.readPod(new PodAddress(ns, "p", "")));
                });

        finish(ctx, failedRead, read -> assertThat(read).as("a failed read").isEmpty());
    }

    @Test
    void oneLiveReadTellsAGonePodFromAFailedRead(VertxTestContext ctx) {
        PodAddress key = create("p");

        Future<LiveRead> failed = step(writer.readLive(new PodAddress(ns, "ghost", ""))).compose(ghost -> {
            assertThat(ghost).as("a missing pod").isInstanceOf(LiveRead.Gone.class);
            return step(writer.readLive(new PodAddress(ns, "p", "uid-of-an-older-pod")));
        }).compose(older -> {
            assertThat(older).as("another incarnation").isInstanceOf(LiveRead.Gone.class);
            return step(writer.readLive(new PodAddress(ns, "p", "")));
        }).compose(any -> {
            assertThat(any).as("any incarnation of the name")
                    .isEqualTo(new LiveRead.Found(((LiveRead.Found) any).pod()));
            assertThat(((LiveRead.Found) any).pod().key()).isEqualTo(key);
            server.failNext("GET", KubePaths.pod(ns, "p"), 500, "etcd is down");
            return step(writer.readLive(key));
        });

        finish(ctx, failed, read -> assertThat(read).as("a failed read is no proof of anything")
                .isInstanceOf(LiveRead.Unread.class).asString().contains("etcd is down"));
    }

    private PodAddress create(String name) {
        Pod created = client.resource(pod(ns, name).build()).create();
        return new PodAddress(ns, name, created.getMetadata().getUid());
    }

    private String nodeNameOf(String name) {
        return client.pods().inNamespace(ns).withName(name).get().getSpec().getNodeName();
    }
}
