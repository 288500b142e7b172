package io.vgpu.gateway.scheduling;

import io.vertx.core.Vertx;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.SchedulerEvent;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.FilterResponses;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.scheduling.FilterFixtures.filter;
import static io.vgpu.gateway.scheduling.FilterFixtures.pod;
import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter's Events never hold up its answer: kube-scheduler waits for the answer, people read the Event
 * (FilteringSucceed lists every fitting node's score, FilteringFailed every rejected node: texts whose cost grows with
 * the nodes), so on Vert.x they are built and written on a worker, beside the answer. The Event still comes. Here
 * the event sink stalls until the test lets it go, and the answer arrives meanwhile.
 */
class FilterServiceEventsTest {

    private final Vertx vertx = Vertx.vertx();
    private final List<SchedulerEvent> recorded = new CopyOnWriteArrayList<>();
    /** Open outside Vert.x (the event is written inline there); the Vert.x tests close it until the answer came. */
    private volatile CountDownLatch stall = new CountDownLatch(0);
    private final EventSink sink = (pod, event) -> {
        try {
            stall.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        recorded.add(event);
        return CompletableFuture.completedFuture(true);
    };

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void theFilteringSucceedEventNeverHoldsUpTheAnswer() throws Exception {
        Answered answered = filterOnContext(service(24_000), args("a", 4000));

        assertThat(answered.result().nodeNames()).containsExactly("node1");
        assertThat(answered.eventsBefore()).as("events written before the answer (the sink stalls)").isEmpty();
        awaitEvents();
        assertThat(recorded).extracting(SchedulerEvent::reason).containsExactly("FilteringSucceed");
    }

    @Test
    void aFailedFilterAlsoAnswersWithoutWaitingForWhyToBeRecorded() throws Exception {
        Answered answered = filterOnContext(service(2_000), args("big", 4000));

        assertThat(answered.result().failedNodes()).containsKey("node1");
        assertThat(answered.eventsBefore()).as("events written before the answer (the sink stalls)").isEmpty();
        awaitEvents();
        assertThat(recorded).extracting(SchedulerEvent::reason).contains("FilteringFailed");
    }

    @Test
    void outsideVertxTheEventIsRecordedBeforeTheCallReturns() throws Exception {
        ExtenderFilterResult result = filter(service(24_000), pod("a", 4000));

        assertThat(result.nodeNames()).containsExactly("node1");
        assertThat(recorded).extracting(SchedulerEvent::reason).containsExactly("FilteringSucceed");
    }

    /** A filter's answer and the events recorded by the time the answer's handler ran. */
    private record Answered(ExtenderFilterResult result, List<SchedulerEvent> eventsBefore) {
    }

    /** Runs the filter on a Vert.x context, as the gateway's verticle does; the answer's handler looks at the sink. */
    private Answered filterOnContext(FilterService service, PodSpec pod) throws Exception {
        CompletableFuture<Answered> answered = new CompletableFuture<>();
        stall = new CountDownLatch(1);
        vertx.runOnContext(v -> service.filter(pod, List.of(FilterFixtures.NODE)).onComplete(r -> answered.complete(
                new Answered(FilterResponses.cacheMode(r.result(), List.of(FilterFixtures.NODE)),
                        List.copyOf(recorded)))));
        try {
            return answered.get(10, TimeUnit.SECONDS);
        } finally {
            stall.countDown();
        }
    }

    private void awaitEvents() {
        Eventually.within(Duration.ofSeconds(5), "an Event recorded", () -> !recorded.isEmpty());
    }

    private FilterService service(int cardMemory) {
        return FilterFixtures.service(stateWith(FilterFixtures.card("GPU-a", 0, cardMemory, "NVIDIA A10")), quotaBook(),
                new AcceptingPodWriter(), sink);
    }

    private static PodSpec args(String name, int mem) {
        return pod(name, mem);
    }
}
