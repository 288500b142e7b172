package io.vgpu.gateway.scheduling;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IngestWindowTest {

    @Test
    void boundsInFlightChangesAndStartsTheRestInOrderAsPlacesFree() {
        IngestWindow window = new IngestWindow(2);
        List<CompletableFuture<Integer>> pending = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        List<CompletionStage<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            results.add(window.submit(() -> {
                started.add(n);
                CompletableFuture<Integer> f = new CompletableFuture<>();
                pending.add(f);
                return f;
            }));
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(window.inFlight()).isEqualTo(2);
        assertThat(window.waiting()).isEqualTo(3);

        pending.get(1).complete(1);
        assertThat(started).containsExactly(0, 1, 2);
        pending.get(0).completeExceptionally(new IllegalStateException("store down"));
        assertThat(started).containsExactly(0, 1, 2, 3);
        pending.get(2).complete(2);
        pending.get(3).complete(3);
        pending.get(4).complete(4);

        assertThat(started).containsExactly(0, 1, 2, 3, 4);
        assertThat(window.inFlight()).isZero();
        assertThat(window.waiting()).isZero();
        assertThat(results.get(0).toCompletableFuture()).isCompletedExceptionally();
        assertThat(results.get(4).toCompletableFuture()).isCompletedWithValue(4);
    }

    @ParameterizedTest(name = "[{index}] limit {0}")
    @ValueSource(ints = {1, 3})
    void changesThatCompleteAtOnceFreeTheirPlaceWithoutRecursion(int limit) {
        IngestWindow window = new IngestWindow(limit);
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 100_000; i++) {
            window.submit(() -> CompletableFuture.completedFuture(1)).thenRun(done::incrementAndGet);
        }
        assertThat(done).hasValue(100_000);
        assertThat(window.inFlight()).isZero();
    }

    @Test
    void settledWaitsForEveryChangeSubmittedBeforeItAndForNoLaterOne() {
        IngestWindow window = new IngestWindow(1);
        CompletableFuture<String> inFlight = new CompletableFuture<>();
        CompletableFuture<String> queued = new CompletableFuture<>();
        window.submit(() -> inFlight);
        window.submit(() -> queued);

        CompletionStage<Void> settled = window.settled();
        CompletableFuture<String> later = new CompletableFuture<>();
        window.submit(() -> later);

        inFlight.complete("a");
        assertThat(settled.toCompletableFuture()).as("the queued change is not done").isNotDone();
        queued.completeExceptionally(new IllegalStateException("refused"));
        assertThat(settled.toCompletableFuture()).as("a failed change counts as done; the later one is not waited for")
                .isCompleted();
        assertThat(window.settled().toCompletableFuture()).isNotDone();
        later.complete("c");
        assertThat(window.settled().toCompletableFuture()).isCompleted();
    }

    @Test
    void settledHangsNothingOnThePendingChanges() {
        // a resync during a re-list calls settled() with 200,000 changes pending: one count per call, not a future
        // (an allOf node) hung on every pending change per call, nor a set entry per change
        IngestWindow window = new IngestWindow(1);
        CompletableFuture<String> inFlight = window.submit(() -> new CompletableFuture<String>()).toCompletableFuture();
        CompletableFuture<String> queued = window.submit(() -> new CompletableFuture<String>()).toCompletableFuture();

        window.settled();
        window.settled();

        assertThat(inFlight.getNumberOfDependents()).isZero();
        assertThat(queued.getNumberOfDependents()).isZero();
    }

    @Test
    void aChangeThatThrowsFailsItsStageAndFreesItsPlace() {
        IngestWindow window = new IngestWindow(1);
        CompletionStage<Object> failed = window.submit(() -> {
            throw new IllegalStateException("not started");
        });
        // the window runs a change inline while it has a place: both stages are complete when submit returns
        assertThatThrownBy(() -> failed.toCompletableFuture().getNow(null))
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(window.submit(() -> CompletableFuture.completedFuture("next")).toCompletableFuture())
                .isCompletedWithValue("next");
    }

    @Test
    void aCallbackMaySubmitAgainInSubmissionOrder() {
        IngestWindow window = new IngestWindow(1);
        List<String> order = new ArrayList<>();
        window.submit(() -> CompletableFuture.completedFuture("a")).thenRun(() -> {
            order.add("a");
            window.submit(() -> CompletableFuture.completedFuture("c")).thenRun(() -> order.add("c"));
        });
        window.submit(() -> CompletableFuture.completedFuture("b")).thenRun(() -> order.add("b"));
        assertThat(order).containsExactly("a", "c", "b"); // in submission order: "c" was submitted before "b"
    }

    @Test
    void underConcurrentCompletionsNoChangeIsLostOrOverTheLimitAndOrderIsKept() throws Exception {
        int limit = 8;
        int changes = 20_000;
        IngestWindow window = new IngestWindow(limit);
        ExecutorService completer = Executors.newFixedThreadPool(4);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        ConcurrentLinkedQueue<Integer> started = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(changes);
        try {
            for (int i = 0; i < changes; i++) {
                int n = i;
                window.submit(() -> {
                    started.add(n);
                    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    return CompletableFuture.supplyAsync(() -> {
                        inFlight.decrementAndGet();
                        return n;
                    }, completer);
                }).thenRun(done::countDown);
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            completer.shutdownNow();
        }
        assertThat(maxInFlight.get()).isLessThanOrEqualTo(limit);
        assertThat(new ArrayList<>(started)).isSorted().hasSize(changes);
        assertThat(window.inFlight()).isZero();
        assertThat(window.waiting()).isZero();
    }

    @Test
    void limitMustBePositive() {
        assertThatThrownBy(() -> new IngestWindow(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
