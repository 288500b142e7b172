package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.accounting.AccountingFeed;
import io.vgpu.gateway.core.accounting.PodTracker;
import io.vgpu.gateway.core.port.ClusterEvents;
import io.vgpu.gateway.core.port.NodeObservation;
import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.QuotaObservation;
import io.vgpu.gateway.core.quota.QuotaBook;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.testsupport.HeldExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.kube.KubeFixtures.eventually;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static io.vgpu.gateway.kube.KubeFixtures.onWorker;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeInformersTest {

    private static final String SCHEDULER = "hami-scheduler";

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeInformers informers;
    private static RecordingEvents events;
    private static QuotaBook quotas;
    private static PodTracker tracker;
    private String ns;

    @BeforeAll
    static void start(VertxTestContext ctx) {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        events = new RecordingEvents();
        quotas = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
        tracker = new PodTracker(quotas);
        informers = new KubeInformers(client, new InformerConfig(List.of(SCHEDULER), Map.of(), "nvidia.com/gpu", true),
                ClusterEvents.fanOut(List.of(events, new AccountingFeed(tracker, quotas))));
        finish(ctx, step(informers.start()), started -> { });
    }

    @AfterAll
    static void stop() {
        informers.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void namespace(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
    }

    @Test
    void informersReportSyncedOnceStarted() {
        assertThat(informers.hasSynced()).isTrue();
    }

    @Test
    void podsAreSelectedOnTheServer() {
        List<String> podLists = server.requests("GET", "/api/v1/pods?").stream().map(MockApiServer.Request::path)
                .toList();

        assertThat(podLists).anyMatch(p -> p.contains("labelSelector=hami.io%2Fvgpu-node"));
        assertThat(podLists).anyMatch(p -> p.contains("fieldSelector=spec.schedulerName%3Dhami-scheduler"));
        assertThat(podLists).allMatch(p -> p.contains("labelSelector=") || p.contains("fieldSelector="));
    }

    /** The seam the chaos harness's stale replica uses: a feed that runs events late delays the cache and the listener. */
    @Test
    void everyEventReachesTheCacheAndTheListenerThroughTheFeedInOrder(Vertx vertx, VertxTestContext ctx) {
        RecordingEvents late = new RecordingEvents();
        HeldExecutor feed = new HeldExecutor();
        KubeInformers slow = new KubeInformers(client, new InformerConfig(List.of(SCHEDULER), Map.of(),
                "nvidia.com/gpu", false), late, feed);
        String name = "node-" + ns;

        Future<Void> delivered = step(slow.start()).compose(started -> {
            feed.runHeld(); // what the first lists delivered
            return onWorker(vertx, () -> {
                client.resource(node(name).allocatableGpus("1").build()).create();
                return client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":\"Requesting_x\"}}}");
            });
        }).compose(patched -> eventually(vertx, "the fresh informers saw both",
                        () -> events.kindsAbout(name).size() == 2))
                .compose(v -> eventually(vertx, "the feed holds both", () -> feed.held() >= 2))
                .map(v -> {
                    assertThat(late.about(name)).isEmpty();
                    assertThat(slow.node(name)).isEmpty();
                    feed.runHeld();
                    assertThat(late.kindsAbout(name)).hasSize(2);
                    assertThat(((NodeObservation) late.about(name).get(1).value()).handshake())
                            .isEqualTo("Requesting_x");
                    assertThat(slow.node(name).orElseThrow().handshake()).isEqualTo("Requesting_x");
                    return null;
                });

        finish(ctx, delivered.eventually(() -> onWorker(vertx, () -> {
            slow.close();
            return null;
        })), v -> { });
    }

    /**
     * "Synced" is the caches', not fabric8's store's: while what the informers listed waits in the feed (on the chaos
     * harness's stale replica, 10 s), a resync must not read the caches as complete.
     */
    @Test
    void notSyncedUntilWhatTheInformersListedHasReachedTheCaches(Vertx vertx, VertxTestContext ctx) {
        HeldExecutor feed = new HeldExecutor();
        KubeInformers held = new KubeInformers(client, new InformerConfig(List.of(SCHEDULER), Map.of(),
                "nvidia.com/gpu", false), new RecordingEvents(), feed);
        String name = "node-" + ns;

        Future<Void> synced = onWorker(vertx, () -> client.resource(node(name).allocatableGpus("1").build()).create())
                .compose(created -> step(held.start()))
                .map(started -> {
                    assertThat(held.hasSynced()).as("listed by fabric8, still held before the cache").isFalse();
                    assertThat(held.node(name)).isEmpty();
                    return null;
                })
                .compose(v -> eventually(vertx, "synced once the feed delivered the lists", () -> {
                    feed.runHeld();
                    return held.hasSynced();
                }))
                .map(v -> {
                    assertThat(held.node(name)).isPresent();
                    return null;
                });

        finish(ctx, synced.eventually(() -> onWorker(vertx, () -> {
            held.close();
            return null;
        })), v -> { });
    }

    @Test
    void aRegisteredNodeIsDeliveredTrimmedWithItsAllocatableGpus(Vertx vertx, VertxTestContext ctx) {
        String name = "node-" + ns;
        client.resource(node(name).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU)
                .annotation(HamiAnnotations.DEVICE_CORDON, "GPU-9")
                .annotation("node.alpha.kubernetes.io/ttl", "0")
                .allocatableGpus("2").build()).create();

        finish(ctx, eventually(vertx, "node upsert", () -> !events.about(name).isEmpty()), v -> {
            NodeObservation seen = (NodeObservation) events.about(name).get(0).value();
            assertThat(seen.register()).isEqualTo(KubeFixtures.ONE_GPU);
            assertThat(seen.cordon()).isEqualTo("GPU-9");
            assertThat(seen.annotations()).doesNotContainKey("node.alpha.kubernetes.io/ttl");
            assertThat(seen.allocatableGpus()).isEqualTo(2);
            assertThat(seen.draMode()).isFalse();
            assertThat(informers.node(name)).contains(seen);
        });
    }

    @Test
    void aNodeLabelledForDraModeIsDeliveredAsSuch(Vertx vertx, VertxTestContext ctx) {
        String name = "node-" + ns;
        client.resource(node(name).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU).build())
                .create();

        Future<Void> updated = eventually(vertx, "node upsert", () -> !events.about(name).isEmpty())
                .compose(v -> onWorker(vertx, () -> client.nodes().withName(name).patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"vgpu.io/mode\":\"dra\"}}}")))
                .compose(patched -> eventually(vertx, "node updated", () -> events.about(name).size() == 2));

        finish(ctx, updated, v -> {
            assertThat(((NodeObservation) events.about(name).get(0).value()).draMode()).isFalse();
            assertThat(((NodeObservation) events.about(name).get(1).value()).draMode()).isTrue();
        });
    }

    @Test
    void nodeChangesAndDeletionAreDelivered(Vertx vertx, VertxTestContext ctx) {
        String name = "node-" + ns;
        client.resource(node(name).allocatableGpus("1").build()).create();

        Future<Void> deleted = eventually(vertx, "node added", () -> events.kindsAbout(name).size() == 1)
                .compose(v -> onWorker(vertx, () -> client.nodes().withName(name).patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":\"2026-08-01T06:00:00Z,ns,p\"}}}")))
                .compose(patched -> eventually(vertx, "node updated", () -> events.kindsAbout(name).size() == 2))
                .compose(v -> onWorker(vertx, () -> client.nodes().withName(name).delete()))
                .compose(gone -> eventually(vertx, "node deleted", () -> events.kindsAbout(name).size() == 3));

        finish(ctx, deleted, v -> {
            assertThat(events.kindsAbout(name)).containsExactly("nodeUpserted", "nodeUpserted", "nodeDeleted");
            assertThat(((NodeObservation) events.about(name).get(1).value()).lock())
                    .isEqualTo("2026-08-01T06:00:00Z,ns,p");
            assertThat(informers.node(name)).isEmpty();
        });
    }

    @Test
    void podsOfOurSchedulerAndLabelledPodsAreDeliveredOthersAreNot(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "ours").scheduler(SCHEDULER).gpus("1").build()).create();
        client.resource(pod(ns, "labelled").label(HamiAnnotations.VGPU_NODE, "n1").build()).create();
        client.resource(pod(ns, "foreign").build()).create();
        client.resource(pod(ns, "last").scheduler(SCHEDULER).build()).create();

        finish(ctx, eventually(vertx, "our pods",
                () -> !events.about(ns + "/last").isEmpty() && !events.about(ns + "/labelled").isEmpty()), v -> {
            assertThat(events.kindsAbout(ns + "/ours")).containsExactly("podAdded");
            assertThat(events.kindsAbout(ns + "/labelled")).containsExactly("podAdded");
            assertThat(events.about(ns + "/foreign")).isEmpty();
            assertThat(informers.pod(ns, "foreign")).isEmpty();
            assertThat(informers.pod(ns, "ours")).isPresent();
        });
    }

    @Test
    void podsAreTrimmedToTheSchedulingView(Vertx vertx, VertxTestContext ctx) {
        Pod full = new PodBuilder(pod(ns, "p").scheduler(SCHEDULER)
                .annotation(HamiAnnotations.USE_GPU_TYPE, "A100")
                .annotation(HamiAnnotations.BIND_PHASE, "allocating")
                .annotation("kubectl.kubernetes.io/last-applied-configuration", "{\"huge\":true}")
                .label("app", "train").boundTo("n1").build())
                .editSpec().addToInitContainers(new ContainerBuilder().withName("init").withImage("busybox").build())
                .editFirstContainer().addNewEnv().withName("SECRET").withValue("x").endEnv()
                .withNewResources().addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity("16Gi")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withInitContainerStatuses(new ContainerStatusBuilder()
                        .withName("init").withNewState().withNewTerminated().withExitCode(0).endTerminated().endState()
                        .build()).endStatus()
                .build();
        client.resource(full).create();

        finish(ctx, eventually(vertx, "pod", () -> informers.pod(ns, "p").isPresent()), v -> {
            ObservedPod seen = informers.pod(ns, "p").orElseThrow();
            assertThat(seen.spec().annotations())
                    .containsOnlyKeys(HamiAnnotations.USE_GPU_TYPE, HamiAnnotations.BIND_PHASE);
            assertThat(seen.spec().labels()).containsEntry("app", "train");
            assertThat(seen.spec().containers().get(0).limits())
                    .containsEntry("nvidia.com/gpu", "1").containsEntry("nvidia.com/gpumem", "16Gi");
            assertThat(seen.spec().containers().get(0).env()).isEmpty();
            assertThat(seen.spec().initContainers()).hasSize(1);
            assertThat(seen.boundNode()).isEqualTo("n1");
            assertThat(seen.bindPhase()).isEqualTo("allocating");
            assertThat(seen.phase()).isEqualTo("Running");
            assertThat(seen.initContainersDoneOk()).isTrue();
            assertThat(seen.resourceVersion()).isNotEmpty();
        });
    }

    @Test
    void aPodInBothSelectionsIsAddedOnceUpdatedOnChangeAndDeletedOnce(Vertx vertx, VertxTestContext ctx) {
        client.resource(pod(ns, "p").scheduler(SCHEDULER).gpus("1").build()).create();

        Future<Void> deleted = eventually(vertx, "added", () -> !events.about(ns + "/p").isEmpty())
                // the filter patch labels it: now it is in both selections
                .compose(v -> onWorker(vertx, () -> client.pods().inNamespace(ns).withName("p").patch(
                        PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"hami.io/vgpu-node\":"
                                + "\"n1\"},\"labels\":{\"hami.io/vgpu-node\":\"n1\"}}}")))
                .compose(patched -> eventually(vertx, "updated",
                        () -> events.kindsAbout(ns + "/p").contains("podUpdated")))
                .compose(v -> onWorker(vertx, () -> client.pods().inNamespace(ns).withName("p").delete()))
                .compose(gone -> eventually(vertx, "deleted",
                        () -> events.kindsAbout(ns + "/p").contains("podDeleted")));

        finish(ctx, deleted, v -> {
            assertThat(events.kindsAbout(ns + "/p")).containsExactly("podAdded", "podUpdated", "podDeleted");
            ObservedPod updated = (ObservedPod) events.about(ns + "/p").get(1).value();
            assertThat(updated.spec().annotation(HamiAnnotations.VGPU_NODE)).isEqualTo("n1");
            assertThat(informers.pod(ns, "p")).isEmpty();
        });
    }

    @Test
    void anAllocatedPodIsChargedThroughTheAccountingFeed(Vertx vertx, VertxTestContext ctx) {
        Pod created = client.resource(pod(ns, "p").scheduler(SCHEDULER).gpus("1")
                .annotation(HamiAnnotations.VGPU_NODE, "n1")
                .annotation(HamiAnnotations.DEVICES_ALLOCATED, "GPU-0,NVIDIA,3000,30:;")
                .label(HamiAnnotations.VGPU_NODE, "n1").build()).create();
        String uid = created.getMetadata().getUid();

        Future<Void> forgotten = eventually(vertx, "tracked", () -> tracker.get(uid) != null)
                .compose(v -> {
                    assertThat(tracker.get(uid).node()).isEqualTo("n1");
                    assertThat(quotas.entry(ns, "nvidia.com/gpumem").used()).isEqualTo(3000);
                    return onWorker(vertx, () -> client.pods().inNamespace(ns).withName("p").delete());
                })
                .compose(gone -> eventually(vertx, "forgotten", () -> tracker.get(uid) == null));

        finish(ctx, forgotten, v -> assertThat(quotas.entry(ns, "nvidia.com/gpumem").used()).isZero());
    }

    @Test
    void resourceQuotaLimitsReachTheQuotaBook(Vertx vertx, VertxTestContext ctx) {
        client.resource(new ResourceQuotaBuilder().withNewMetadata().withNamespace(ns).withName("gpu").endMetadata()
                .withNewSpec().addToHard("limits.nvidia.com/gpumem", new Quantity("4096"))
                .addToHard("limits.nvidia.com/gpucores", new Quantity("100"))
                .addToHard("requests.nvidia.com/gpumem", new Quantity("1"))
                .addToHard("limits.cpu", new Quantity("500m")).endSpec().build()).create();

        Future<Void> cleared = eventually(vertx, "quota", () -> !events.about(ns + "/gpu").isEmpty())
                .compose(v -> {
                    QuotaObservation seen = (QuotaObservation) events.about(ns + "/gpu").get(0).value();
                    assertThat(seen.limits()).containsOnly(Map.entry("nvidia.com/gpumem", 4096L),
                            Map.entry("nvidia.com/gpucores", 100L));
                    return eventually(vertx, "quota book has the limit", () -> quotas.entry(ns, "nvidia.com/gpumem")
                            != null && quotas.entry(ns, "nvidia.com/gpumem").limit() == 4096);
                })
                .compose(v -> {
                    assertThat(quotas.fits(ns, 5000, 0)).isFalse();
                    return onWorker(vertx, () -> client.resourceQuotas().inNamespace(ns).withName("gpu").delete());
                })
                .compose(gone -> eventually(vertx, "quota deleted",
                        () -> events.kindsAbout(ns + "/gpu").contains("quotaDeleted")))
                // the recorder hears of the delete just before the quota book does (same delivery, next listener)
                .compose(v -> eventually(vertx, "quota book cleared", () -> quotas.fits(ns, 5000, 0)));

        finish(ctx, cleared, v -> { });
    }
}
