package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.vgpu.gateway.kube.KubeFixtures.eventually;
import static io.vgpu.gateway.kube.KubeFixtures.finishOnWorker;
import static io.vgpu.gateway.kube.KubeFixtures.pod;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeEventRecorderTest {

    private static KubeFixtures.MockKube kube;
    private static MockApiServer server;
    private static KubernetesClient client;
    private static KubeApi api;
    private static KubeEventRecorder recorder;
    private String ns;
    private PodAddress pod;

    @BeforeAll
    static void startServer() {
        kube = KubeFixtures.mockKube();
        server = kube.server();
        client = kube.client();
        api = kube.api();
        recorder = new KubeEventRecorder(api, "hami-scheduler", 16, Clock.systemUTC());
    }

    @AfterAll
    static void stopServer() {
        kube.close();
    }

    @BeforeEach
    void createPod(TestInfo test) {
        ns = KubeFixtures.nameOf(test);
        Pod created = client.resource(pod(ns, "p").build()).create();
        pod = new PodAddress(ns, "p", created.getMetadata().getUid());
    }

    @Test
    void bindingSucceededIsANormalEventOnThePodFromTheScheduler(Vertx vertx, VertxTestContext ctx) {
        recorder.bindingSucceeded(pod, "n1");

        finishOnWorker(ctx, vertx, eventually(vertx, "an event", () -> !events().isEmpty()), v -> {
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
        });
    }

    @Test
    void filteringFailedWritesOneEventPerReasonWordAndTheSummary(Vertx vertx, VertxTestContext ctx) {
        Map<String, NodeRejection> failed = new LinkedHashMap<>();
        failed.put("n2", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 1), 1));
        failed.put("n1", new DeviceRejection(Map.of(FitReason.CardInsufficientMemory, 2, FitReason.CardNotHealth, 1), 2));
        failed.put("n3", NodeReason.NODE_UNREGISTERED);

        recorder.filteringFailed(pod, failed, 3);

        finishOnWorker(ctx, vertx, eventually(vertx, "three events", () -> events().size() == 3), v -> {
            assertThat(events()).extracting(Event::getReason).containsOnly("FilteringFailed");
            assertThat(events()).extracting(Event::getType).containsOnly("Warning");
            assertThat(events()).extracting(Event::getMessage).containsExactlyInAnyOrder(
                    "2 nodes CardInsufficientMemory(n1,n2)",
                    "1 nodes CardNotHealth(n1)",
                    "no available node, 3 nodes do not meet");
        });
    }

    @Test
    void filteringSucceededListsTheScoresInHamisOrder(Vertx vertx, VertxTestContext ctx) {
        recorder.filteringSucceeded(pod, "n1", 3, List.of(new ScoredNode("n1", 2.5f), new ScoredNode("n2", 1.125f)));

        finishOnWorker(ctx, vertx, eventually(vertx, "an event", () -> !events().isEmpty()), v -> assertThat(
                onlyEvent().getMessage())
                .isEqualTo("find fit node(n1), 1 nodes not fit, 2 nodes fit(n2:1.12,n1:2.50)"));
    }

    @Test
    void eventsBeyondTheInFlightBoundAreDroppedNotQueued(Vertx vertx, VertxTestContext ctx) {
        KubeEventRecorder tiny = new KubeEventRecorder(api, "hami-scheduler", 1, Clock.systemUTC());
        // the second event is recorded when the first reaches the API server: while the first is surely in flight
        AtomicReference<CompletionStage<Boolean>> second = new AtomicReference<>();
        server.beforeNext("POST", KubePaths.events(ns),
                s -> second.set(tiny.record(pod, SchedulerEvent.bindingFailed("dropped"))));

        Future<Boolean> first = step(tiny.record(pod, SchedulerEvent.bindingFailed("slow")));

        finishOnWorker(ctx, vertx, first.compose(slow -> {
            assertThat(slow).as("the first event written").isTrue();
            return step(second.get());
        }), dropped -> {
            assertThat(dropped).as("the second event written").isFalse();
            assertThat(tiny.dropped()).isEqualTo(1);
            assertThat(events()).extracting(Event::getMessage).containsExactly("slow");
        });
    }

    @Test
    void eventsAreDroppedWhenTheClientHasNoRateTokenFree(Vertx vertx, VertxTestContext ctx) {
        KubeClientConfig oneToken = KubeFixtures.TEST_CLIENT.withRate(0.001, 1);
        KubeApi limited = new KubeApi(client, oneToken);
        KubeEventRecorder throttled = new KubeEventRecorder(limited, "hami-scheduler", 16, Clock.systemUTC());

        Future<List<Boolean>> written = step(throttled.record(pod, SchedulerEvent.bindingFailed("first")))
                .compose(first -> step(throttled.record(pod, SchedulerEvent.bindingFailed("second")))
                        .map(second -> List.of(first, second)))
                .eventually(() -> KubeFixtures.onWorker(vertx, () -> {
                    limited.close();
                    return null;
                }));

        finish(ctx, written, firstAndSecond -> assertThat(firstAndSecond).containsExactly(true, false));
    }

    @Test
    void withoutARateTokenOrRoomInFlightNothingIsAdmittedAndTheEventCountsAsDropped(Vertx vertx,
                                                                                   VertxTestContext ctx) {
        KubeEventRecorder none = new KubeEventRecorder(api, "hami-scheduler", 0, Clock.systemUTC());
        assertThat(none.admits(pod)).as("no write allowed in flight").isFalse();
        assertThat(none.dropped()).isEqualTo(1);
        KubeApi limited = new KubeApi(client, KubeFixtures.TEST_CLIENT.withRate(0.001, 1));
        KubeEventRecorder throttled = new KubeEventRecorder(limited, "hami-scheduler", 16, Clock.systemUTC());
        assertThat(throttled.admits(pod)).as("the one token free").isTrue();

        Future<Boolean> first = step(throttled.record(pod, SchedulerEvent.bindingFailed("first")))
                .eventually(() -> KubeFixtures.onWorker(vertx, () -> {
                    limited.close();
                    return null;
                }));

        finish(ctx, first, written -> {
            assertThat(written).isTrue();
            assertThat(throttled.admits(pod)).as("the one token taken").isFalse();
            assertThat(throttled.dropped()).isEqualTo(1);
        });
    }

    /** The namespace's only event; call once one is there. */
    private Event onlyEvent() {
        assertThat(events()).hasSize(1);
        return events().get(0);
    }

    private List<Event> events() {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .sorted(Comparator.comparing(e -> e.getMetadata().getName())).toList();
    }
}
