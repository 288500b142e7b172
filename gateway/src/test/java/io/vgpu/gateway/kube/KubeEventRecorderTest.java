package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.SchedulerEvent;
import io.vgpu.gateway.core.port.ScoredNode;
import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.FitReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static io.vgpu.gateway.kube.KubeFixtures.eventually;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class KubeEventRecorderTest {

    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private static KubeEventRecorder recorder;
    private String ns;
    private PodAddress pod;

    @BeforeAll
    static void startServer() {
        server = MockApiServer.start();
        client = server.client(KubeFixtures.TEST_CLIENT);
        api = new KubeApi(client, KubeFixtures.TEST_CLIENT);
        recorder = new KubeEventRecorder(api, "hami-scheduler", 16, Clock.systemUTC());
    }

    @AfterAll
    static void stopServer() {
        api.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void createPod(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        Pod created = client.resource(pod(ns, "p").build()).create();
        pod = new PodAddress(ns, "p", created.getMetadata().getUid());
    }

    @Test
    void bindingSucceededIsANormalEventOnThePodFromTheScheduler() {
        recorder.bindingSucceeded(pod, "n1");

        Event event = onlyEvent();
        assertThat(event.getReason()).isEqualTo("BindingSucceed");
        assertThat(event.getType()).isEqualTo("Normal");
        assertThat(event.getMessage()).isEqualTo("Successfully binding node [n1] to " + ns + "/p");
        assertThat(event.getSource().getComponent()).isEqualTo("hami-scheduler");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("p");
        assertThat(event.getInvolvedObject().getNamespace()).isEqualTo(ns);
        assertThat(event.getInvolvedObject().getUid()).isEqualTo(pod.uid());
        assertThat(event.getMetadata().getName()).startsWith("p.");
        assertThat(event.getCount()).isEqualTo(1);
        assertThat(event.getFirstTimestamp()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }

    @Test
    void filteringFailedWritesOneEventPerReasonWordAndTheSummary() {
        Map<String, NodeRejection> failed = new LinkedHashMap<>();
        failed.put("n2", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 1), 1));
        failed.put("n1", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 2, FitReason.CardNotHealth, 1), 2));
        failed.put("n3", NodeReason.NODE_UNREGISTERED);

        recorder.filteringFailed(pod, failed, 3);

        eventually("three events", () -> events().size() == 3);
        assertThat(events()).extracting(Event::getReason).containsOnly("FilteringFailed");
        assertThat(events()).extracting(Event::getType).containsOnly("Warning");
        assertThat(events()).extracting(Event::getMessage).containsExactlyInAnyOrder(
                "2 nodes CardInsufficientMemory(n1,n2)",
                "1 nodes CardNotHealth(n1)",
                "no available node, 3 nodes do not meet");
    }

    @Test
    void filteringSucceededListsTheScoresInHamisOrder() {
        recorder.filteringSucceeded(pod, "n1", 3, List.of(new ScoredNode("n1", 2.5f), new ScoredNode("n2", 1.125f)));

        assertThat(onlyEvent().getMessage()).isEqualTo("find fit node(n1), 1 nodes not fit, 2 nodes fit(n2:1.12,n1:2.50)");
    }

    @Test
    void eventsBeyondTheInFlightBoundAreDroppedNotQueued() {
        KubeEventRecorder tiny = new KubeEventRecorder(api, "hami-scheduler", 1, Clock.systemUTC());
        server.beforeNext("POST", KubePaths.events(ns), s -> sleep(Duration.ofMillis(300)));

        var first = tiny.record(pod, SchedulerEvent.bindingFailed("slow"));
        var second = tiny.record(pod, SchedulerEvent.bindingFailed("dropped"));

        assertThat(await(second)).isFalse();
        assertThat(await(first)).isTrue();
        assertThat(tiny.dropped()).isEqualTo(1);
        assertThat(events()).extracting(Event::getMessage).containsExactly("slow");
    }

    @Test
    void eventsAreDroppedWhenTheClientHasNoRateTokenFree() {
        KubeClientConfig oneToken = KubeFixtures.TEST_CLIENT.withRate(0.001, 1);
        try (KubeApi limited = new KubeApi(client, oneToken)) {
            KubeEventRecorder throttled = new KubeEventRecorder(limited, "hami-scheduler", 16, Clock.systemUTC());

            boolean first = await(throttled.record(pod, SchedulerEvent.bindingFailed("first")));
            boolean second = await(throttled.record(pod, SchedulerEvent.bindingFailed("second")));

            assertThat(first).isTrue();
            assertThat(second).isFalse();
        }
    }

    private Event onlyEvent() {
        eventually("an event", () -> !events().isEmpty());
        assertThat(events()).hasSize(1);
        return events().get(0);
    }

    private List<Event> events() {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .sorted(Comparator.comparing(e -> e.getMetadata().getName())).toList();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
