package io.vgpu.deviceplugin.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vgpu.deviceplugin.core.monitor.MonitoredPod;
import io.vgpu.deviceplugin.testing.NodeFieldApiServer;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link KubePodDirectory} against fabric8's CRUD mock taught {@code spec.nodeName}: the two selections,
 * the mapping to {@link MonitoredPod}, changes after the sync, lookups that cost no API call, and lookups
 * that fail (rather than answer partially) before the sync and after close.
 */
@Timeout(30)
class KubePodDirectoryTest {

    private static final String NODE = "node-a";
    private NodeFieldApiServer api;
    private KubernetesClient client;

    /**
     * A server per test: the CRUD mock keeps writing events to the watches of a stopped informer (and
     * blocks on them), so informers of different tests must not share one.
     */
    @BeforeEach
    void startApiServer() {
        api = NodeFieldApiServer.start();
        client = api.client();
        // the pods of every test: name, node, value of hami.io/vgpu-node (null = unlabelled)
        pod("on-and-assigned", NODE, NODE);
        pod("assigned-elsewhere", "node-b", NODE);
        pod("on-unlabelled", NODE, null);
        pod("other-node", "node-b", "node-b");
        pod("on-assigned-to-other", NODE, "node-b");
        pod("pending-assigned", null, NODE);
    }

    @AfterEach
    void stopApiServer() {
        api.close();
    }

    private void pod(String name, String node, String assignedTo) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withNamespace("kpd").withName(name)
                .withLabels(assignedTo == null ? Map.of("app", "x") : Map.of("app", "x", MonitoredPod.ASSIGNED_NODE_LABEL, assignedTo))
                .withAnnotations(Map.of("hami.io/vgpu-devices-allocated", "GPU-0,NVIDIA,1000,10:;"))
                .endMetadata()
                .withNewSpec().withNodeName(node)
                .addNewInitContainer().withName("setup").withImage("busybox").endInitContainer()
                .addNewContainer().withName("worker").withImage("cuda").endContainer()
                .addNewContainer().withName("sidecar").withImage("envoy").endContainer()
                .endSpec();
        client.pods().inNamespace("kpd").resource(pod.build()).create();
    }

    private KubePodDirectory synced() throws Exception {
        KubePodDirectory pods = KubePodDirectory.start(client, NODE);
        pods.synced().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return pods;
    }

    private static List<MonitoredPod> now(CompletionStage<List<MonitoredPod>> stage) {
        return stage.toCompletableFuture().getNow(null);
    }

    static Stream<Arguments> selections() {
        return Stream.of(
                Arguments.of("spec.nodeName = node", (BiFunction<KubePodDirectory, String, CompletionStage<List<MonitoredPod>>>)
                        KubePodDirectory::podsOnNode, List.of("on-and-assigned", "on-unlabelled", "on-assigned-to-other")),
                Arguments.of("label hami.io/vgpu-node = node, on any node", (BiFunction<KubePodDirectory, String, CompletionStage<List<MonitoredPod>>>)
                        KubePodDirectory::podsAssignedTo, List.of("on-and-assigned", "assigned-elsewhere", "pending-assigned")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void answersEachSelectionFromItsCacheWithoutAnApiCall(String name,
                                                         BiFunction<KubePodDirectory, String, CompletionStage<List<MonitoredPod>>> lookup,
                                                         List<String> expected) throws Exception {
        try (KubePodDirectory pods = synced()) {
            assertThat(pods.hasSynced()).isTrue();
            int requests = api.requestCount();

            List<MonitoredPod> found = now(lookup.apply(pods, NODE));

            assertThat(found).as("an already completed stage").isNotNull()
                    .extracting(MonitoredPod::name).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(api.requestCount()).as("answered from the informer cache").isEqualTo(requests);
        }
    }

    @Test
    void mapsEveryFieldTheMonitorReads() throws Exception {
        try (KubePodDirectory pods = synced()) {
            MonitoredPod pod = now(pods.podsOnNode(NODE)).stream().filter(p -> p.name().equals("on-and-assigned"))
                    .findFirst().orElseThrow();

            String uid = client.pods().inNamespace("kpd").withName("on-and-assigned").get().getMetadata().getUid();
            assertThat(pod).isEqualTo(new MonitoredPod(uid, "kpd", "on-and-assigned", NODE,
                    Map.of("app", "x", MonitoredPod.ASSIGNED_NODE_LABEL, NODE),
                    Map.of("hami.io/vgpu-devices-allocated", "GPU-0,NVIDIA,1000,10:;"),
                    List.of("setup"), List.of("worker", "sidecar")));
        }
    }

    @Test
    void followsPodsAddedAndDeletedAfterTheSync() throws Exception {
        try (KubePodDirectory pods = synced()) {
            Pod added = client.pods().inNamespace("kpd-changes").resource(new PodBuilder()
                    .withNewMetadata().withNamespace("kpd-changes").withName("late")
                    .withLabels(Map.of(MonitoredPod.ASSIGNED_NODE_LABEL, NODE)).endMetadata()
                    .withNewSpec().withNodeName(NODE).addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                    .build()).create();

            assertThat(eventually(() -> names(pods.podsOnNode(NODE)).contains("late")
                    && names(pods.podsAssignedTo(NODE)).contains("late"))).isTrue();

            client.pods().inNamespace("kpd-changes").withName("late").delete();

            assertThat(eventually(() -> !names(pods.podsOnNode(NODE)).contains("late")
                    && !names(pods.podsAssignedTo(NODE)).contains("late"))).isTrue();
            assertThat(added.getMetadata().getUid()).isNotBlank();
        }
    }

    @Test
    void failsEveryLookupBeforeTheCachesHaveSynced() throws Exception {
        KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + closedPort()).withRequestRetryBackoffLimit(0).build()).build();
        try (KubePodDirectory pods = KubePodDirectory.start(unreachable, NODE)) {
            assertThat(pods.hasSynced()).isFalse();
            assertThat(pods.synced().toCompletableFuture()).isNotDone();
            assertThat(pods.podsOnNode(NODE)).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                    .havingRootCause().isInstanceOf(IllegalStateException.class)
                    .withMessage("the informer of pods on node node-a has not synced yet");
            assertThat(pods.podsAssignedTo(NODE)).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                    .havingRootCause().isInstanceOf(IllegalStateException.class)
                    .withMessage("the informer of pods labelled hami.io/vgpu-node=node-a has not synced yet");
        } finally {
            unreachable.close();
        }
    }

    @Test
    void failsLookupsAfterCloseAndForAnotherNode() throws Exception {
        KubePodDirectory pods = synced();
        assertThat(pods.podsOnNode("node-b")).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                .havingRootCause().isInstanceOf(IllegalArgumentException.class)
                .withMessage("this pod directory watches node node-a, not node-b");

        pods.close();

        assertThat(pods.hasSynced()).isFalse();
        assertThat(pods.podsOnNode(NODE)).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                .havingRootCause().isInstanceOf(IllegalStateException.class)
                .withMessage("the informer of pods on node node-a is stopped");
        assertThat(pods.podsAssignedTo(NODE)).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                .havingRootCause().withMessageContaining("is stopped");
    }

    private static List<String> names(CompletionStage<List<MonitoredPod>> stage) {
        return now(stage).stream().map(MonitoredPod::name).toList();
    }

    private static boolean eventually(BooleanSupplier condition) {
        try {
            Eventually.within(Duration.ofSeconds(10), "condition", condition);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
