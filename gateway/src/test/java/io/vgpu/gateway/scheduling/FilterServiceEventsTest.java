package io.vgpu.gateway.scheduling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.SchedulerEvent;
import io.vgpu.gateway.extender.ExtenderFilterResult;
import io.vgpu.gateway.extender.FilterResponses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vgpu.gateway.scheduling.FilterFixtures.pod;
import static io.vgpu.gateway.scheduling.FilterFixtures.quotaBook;
import static io.vgpu.gateway.scheduling.FilterFixtures.stateWith;
import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.onContext;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter's Events never hold up its answer: kube-scheduler waits for the answer, people read the Event
 * (FilteringSucceed lists every fitting node's score, FilteringFailed every rejected node: texts whose cost grows with
 * the nodes), so on Vert.x they are built and written on a worker, beside the answer. The Event still comes. Here
 * the event sink stalls until the test lets it go, and the answer arrives meanwhile.
 */
@ExtendWith(VertxExtension.class)
class FilterServiceEventsTest {

    private final List<SchedulerEvent> recorded = new CopyOnWriteArrayList<>();
    /** Completed once the sink recorded its first event. */
    private final CompletableFuture<SchedulerEvent> firstEvent = new CompletableFuture<>();
    /** Open outside Vert.x (the event is written inline there); the Vert.x tests close it until the answer came. */
    private volatile CountDownLatch stall = new CountDownLatch(0);
    /** Stalls the worker that writes the event (not the test thread) until the answer came. */
    private final EventSink sink = (pod, event) -> {
        try {
            stall.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        recorded.add(event);
        firstEvent.complete(event);
        return CompletableFuture.completedFuture(true);
    };

    @Test
    void theFilteringSucceedEventNeverHoldsUpTheAnswer(Vertx vertx, VertxTestContext ctx) {
        Future<Answered> flow = filterOnContext(vertx, service(24_000), args("a", 4000)).compose(answered -> {
            assertThat(answered.result().nodeNames()).containsExactly("node1");
            assertThat(answered.eventsBefore()).as("events written before the answer (the sink stalls)").isEmpty();
            return step(firstEvent).map(answered);
        });

        finish(ctx, flow, answered ->
                assertThat(recorded).extracting(SchedulerEvent::reason).containsExactly("FilteringSucceed"));
    }

    @Test
    void aFailedFilterAlsoAnswersWithoutWaitingForWhyToBeRecorded(Vertx vertx, VertxTestContext ctx) {
        Future<Answered> flow = filterOnContext(vertx, service(2_000), args("big", 4000)).compose(answered -> {
            assertThat(answered.result().failedNodes()).containsKey("node1");
            assertThat(answered.eventsBefore()).as("events written before the answer (the sink stalls)").isEmpty();
            return step(firstEvent).map(answered);
        });

        finish(ctx, flow, answered ->
                assertThat(recorded).extracting(SchedulerEvent::reason).contains("FilteringFailed"));
    }

    @Test
    void outsideVertxTheEventIsRecordedBeforeTheCallReturns(VertxTestContext ctx) {
        Future<ExtenderFilterResult> answer = FilterFixtures.filter(service(24_000), pod("a", 4000));

        assertThat(recorded).extracting(SchedulerEvent::reason).containsExactly("FilteringSucceed");
        finish(ctx, answer, result -> assertThat(result.nodeNames()).containsExactly("node1"));
    }

    @Test
    void aSinkThatWouldDropTheEventIsAskedFirstAndGetsNothingToBuildOrWrite(VertxTestContext ctx) {
        AtomicInteger asked = new AtomicInteger();
        EventSink full = new EventSink() {
            @Override
            public CompletionStage<Boolean> record(PodAddress pod, SchedulerEvent event) {
                recorded.add(event);
                return CompletableFuture.completedFuture(false);
            }

            @Override
            public boolean admits(PodAddress pod) {
                asked.incrementAndGet();
                return false;
            }
        };
        Future<ExtenderFilterResult> placed = FilterFixtures.filter(FilterFixtures.service(
                stateWith(FilterFixtures.card("GPU-a", 0, 24_000, "NVIDIA A10")), quotaBook(), new AcceptingPodWriter(),
                full), pod("a", 4000));
        Future<ExtenderFilterResult> noFit = FilterFixtures.filter(FilterFixtures.service(
                stateWith(FilterFixtures.card("GPU-a", 0, 2_000, "NVIDIA A10")), quotaBook(), new AcceptingPodWriter(),
                full), pod("big", 4000));

        finish(ctx, placed.compose(p -> noFit.map(n -> List.of(p, n))), answers -> {
            assertThat(answers.get(0).nodeNames()).containsExactly("node1");
            assertThat(answers.get(1).failedNodes()).containsKey("node1");
            assertThat(asked).as("the sink asked once per filter").hasValue(2);
            assertThat(recorded).as("events handed to a sink that would drop them").isEmpty();
        });
    }

    /** A filter's answer and the events recorded by the time the answer's handler ran. */
    private record Answered(ExtenderFilterResult result, List<SchedulerEvent> eventsBefore) {
    }

    /**
     * Runs the filter on a Vert.x context, as the gateway's verticle does; the answer's handler looks at the sink,
     * then lets the stalled event go.
     */
    private Future<Answered> filterOnContext(Vertx vertx, FilterService service, PodSpec pod) {
        stall = new CountDownLatch(1);
        return onContext(vertx, () -> service.filter(pod, List.of(FilterFixtures.NODE)).map(outcome -> new Answered(
                FilterResponses.cacheMode(outcome, List.of(FilterFixtures.NODE)), List.copyOf(recorded))))
                .eventually(() -> {
                    stall.countDown();
                    return Future.succeededFuture();
                });
    }

    private FilterService service(int cardMemory) {
        return FilterFixtures.service(stateWith(FilterFixtures.card("GPU-a", 0, cardMemory, "NVIDIA A10")), quotaBook(),
                new AcceptingPodWriter(), sink);
    }

    private static PodSpec args(String name, int mem) {
        return pod(name, mem);
    }
}
