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

import java.util.List;
import java.util.Map;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.eventually;
import static io.vgpu.gateway.kube.KubeFixtures.node;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

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
    static void start() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        events = new RecordingEvents();
        quotas = new QuotaBook("nvidia.com/gpumem", "nvidia.com/gpucores", 1);
        tracker = new PodTracker(quotas);
        informers = new KubeInformers(client, new InformerConfig(List.of(SCHEDULER), Map.of(), "nvidia.com/gpu", true),
                ClusterEvents.fanOut(List.of(events, new AccountingFeed(tracker, quotas))));
        await(informers.start());
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
    void everyEventReachesTheCacheAndTheListenerThroughTheFeedInOrder() {
        RecordingEvents late = new RecordingEvents();
        HeldExecutor feed = new HeldExecutor();
        KubeInformers slow = new KubeInformers(client, new InformerConfig(List.of(SCHEDULER), Map.of(),
                "nvidia.com/gpu", false), late, feed);
        try {
            await(slow.start());
            feed.runHeld(); // what the first lists delivered
            String name = "node-" + ns;
            client.resource(node(name).allocatableGpus("1").build()).create();
            client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":\"Requesting_x\"}}}");
            eventually("the fresh informers saw both", () -> events.kindsAbout(name).size() == 2);
            eventually("the feed holds both", () -> feed.held() >= 2);

            assertThat(late.about(name)).isEmpty();
            assertThat(slow.node(name)).isEmpty();
            feed.runHeld();
            assertThat(late.kindsAbout(name)).hasSize(2);
            assertThat(((NodeObservation) late.about(name).get(1).value()).handshake()).isEqualTo("Requesting_x");
            assertThat(slow.node(name).orElseThrow().handshake()).isEqualTo("Requesting_x");
        } finally {
            slow.close();
        }
    }

    @Test
    void aRegisteredNodeIsDeliveredTrimmedWithItsAllocatableGpus() {
        String name = "node-" + ns;
        client.resource(node(name).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU)
                .annotation(HamiAnnotations.DEVICE_CORDON, "GPU-9")
                .annotation("node.alpha.kubernetes.io/ttl", "0")
                .allocatableGpus("2").build()).create();

        eventually("node upsert", () -> !events.about(name).isEmpty());

        NodeObservation seen = (NodeObservation) events.about(name).get(0).value();
        assertThat(seen.register()).isEqualTo(KubeFixtures.ONE_GPU);
        assertThat(seen.cordon()).isEqualTo("GPU-9");
        assertThat(seen.annotations()).doesNotContainKey("node.alpha.kubernetes.io/ttl");
        assertThat(seen.allocatableGpus()).isEqualTo(2);
        assertThat(seen.draMode()).isFalse();
        assertThat(informers.node(name)).contains(seen);
    }

    @Test
    void aNodeLabelledForDraModeIsDeliveredAsSuch() {
        String name = "node-" + ns;
        client.resource(node(name).annotation(HamiAnnotations.NODE_NVIDIA_REGISTER, KubeFixtures.ONE_GPU).build()).create();
        eventually("node upsert", () -> !events.about(name).isEmpty());
        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"vgpu.io/mode\":\"dra\"}}}");

        eventually("node updated", () -> events.about(name).size() == 2);
        assertThat(((NodeObservation) events.about(name).get(0).value()).draMode()).isFalse();
        assertThat(((NodeObservation) events.about(name).get(1).value()).draMode()).isTrue();
    }

    @Test
    void nodeChangesAndDeletionAreDelivered() {
        String name = "node-" + ns;
        client.resource(node(name).allocatableGpus("1").build()).create();
        eventually("node added", () -> events.kindsAbout(name).size() == 1);

        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":\"2026-08-01T06:00:00Z,ns,p\"}}}");
        eventually("node updated", () -> events.kindsAbout(name).size() == 2);
        client.nodes().withName(name).delete();
        eventually("node deleted", () -> events.kindsAbout(name).size() == 3);

        assertThat(events.kindsAbout(name)).containsExactly("nodeUpserted", "nodeUpserted", "nodeDeleted");
        assertThat(((NodeObservation) events.about(name).get(1).value()).lock()).isEqualTo("2026-08-01T06:00:00Z,ns,p");
        assertThat(informers.node(name)).isEmpty();
    }

    @Test
    void podsOfOurSchedulerAndLabelledPodsAreDeliveredOthersAreNot() {
        client.resource(pod(ns, "ours").scheduler(SCHEDULER).gpus("1").build()).create();
        client.resource(pod(ns, "labelled").label(HamiAnnotations.VGPU_NODE, "n1").build()).create();
        client.resource(pod(ns, "foreign").build()).create();
        client.resource(pod(ns, "last").scheduler(SCHEDULER).build()).create();

        eventually("our pods", () -> !events.about(ns + "/last").isEmpty() && !events.about(ns + "/labelled").isEmpty());

        assertThat(events.kindsAbout(ns + "/ours")).containsExactly("podAdded");
        assertThat(events.kindsAbout(ns + "/labelled")).containsExactly("podAdded");
        assertThat(events.about(ns + "/foreign")).isEmpty();
        assertThat(informers.pod(ns, "foreign")).isEmpty();
        assertThat(informers.pod(ns, "ours")).isPresent();
    }

    @Test
    void podsAreTrimmedToTheSchedulingView() {
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

        eventually("pod", () -> informers.pod(ns, "p").isPresent());

        ObservedPod seen = informers.pod(ns, "p").orElseThrow();
        assertThat(seen.spec().annotations()).containsOnlyKeys(HamiAnnotations.USE_GPU_TYPE, HamiAnnotations.BIND_PHASE);
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
    }

    @Test
    void aPodInBothSelectionsIsAddedOnceUpdatedOnChangeAndDeletedOnce() {
        client.resource(pod(ns, "p").scheduler(SCHEDULER).gpus("1").build()).create();
        eventually("added", () -> !events.about(ns + "/p").isEmpty());

        // the filter patch labels it: now it is in both selections
        client.pods().inNamespace(ns).withName("p").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"hami.io/vgpu-node\":\"n1\"},\"labels\":{\"hami.io/vgpu-node\":\"n1\"}}}");
        eventually("updated", () -> events.kindsAbout(ns + "/p").contains("podUpdated"));
        client.pods().inNamespace(ns).withName("p").delete();
        eventually("deleted", () -> events.kindsAbout(ns + "/p").contains("podDeleted"));

        assertThat(events.kindsAbout(ns + "/p")).containsExactly("podAdded", "podUpdated", "podDeleted");
        ObservedPod updated = (ObservedPod) events.about(ns + "/p").get(1).value();
        assertThat(updated.spec().annotation(HamiAnnotations.VGPU_NODE)).isEqualTo("n1");
        assertThat(informers.pod(ns, "p")).isEmpty();
    }

    @Test
    void anAllocatedPodIsChargedThroughTheAccountingFeed() {
        Pod created = client.resource(pod(ns, "p").scheduler(SCHEDULER).gpus("1")
                .annotation(HamiAnnotations.VGPU_NODE, "n1")
                .annotation(HamiAnnotations.DEVICES_ALLOCATED, "GPU-0,NVIDIA,3000,30:;")
                .label(HamiAnnotations.VGPU_NODE, "n1").build()).create();
        String uid = created.getMetadata().getUid();

        eventually("tracked", () -> tracker.get(uid) != null);
        assertThat(tracker.get(uid).node()).isEqualTo("n1");
        assertThat(quotas.entry(ns, "nvidia.com/gpumem").used()).isEqualTo(3000);

        client.pods().inNamespace(ns).withName("p").delete();
        eventually("forgotten", () -> tracker.get(uid) == null);
        assertThat(quotas.entry(ns, "nvidia.com/gpumem").used()).isZero();
    }

    @Test
    void resourceQuotaLimitsReachTheQuotaBook() {
        client.resource(new ResourceQuotaBuilder().withNewMetadata().withNamespace(ns).withName("gpu").endMetadata()
                .withNewSpec().addToHard("limits.nvidia.com/gpumem", new Quantity("4096"))
                .addToHard("limits.nvidia.com/gpucores", new Quantity("100"))
                .addToHard("requests.nvidia.com/gpumem", new Quantity("1"))
                .addToHard("limits.cpu", new Quantity("500m")).endSpec().build()).create();

        eventually("quota", () -> !events.about(ns + "/gpu").isEmpty());

        QuotaObservation seen = (QuotaObservation) events.about(ns + "/gpu").get(0).value();
        assertThat(seen.limits()).containsOnly(Map.entry("nvidia.com/gpumem", 4096L), Map.entry("nvidia.com/gpucores", 100L));
        eventually("quota book has the limit", () -> quotas.entry(ns, "nvidia.com/gpumem") != null
                && quotas.entry(ns, "nvidia.com/gpumem").limit() == 4096);
        assertThat(quotas.fits(ns, 5000, 0)).isFalse();

        client.resourceQuotas().inNamespace(ns).withName("gpu").delete();
        eventually("quota deleted", () -> events.kindsAbout(ns + "/gpu").contains("quotaDeleted"));
        // the recorder hears of the delete just before the quota book does (same delivery, next listener)
        eventually("quota book cleared", () -> quotas.fits(ns, 5000, 0));
    }
}
