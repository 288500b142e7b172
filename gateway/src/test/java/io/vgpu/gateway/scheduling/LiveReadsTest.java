package io.vgpu.gateway.scheduling;

import io.vgpu.gateway.core.port.ObservedPod;
import io.vgpu.gateway.core.port.PodAddress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A resync's live reads: one per pod at a time (a second resync joins the first's read), a bounded number at once. */
class LiveReadsTest {

    private final HeldReads api = new HeldReads();
    private final LiveReads reads = new LiveReads(api);

    @Test
    void aSecondReadOfAPodUnderWayJoinsTheFirstAndItsChargeInsteadOfReadingAgain() {
        AtomicInteger charged = new AtomicInteger();
        PodAddress pod = new PodAddress("ns", "p", "uid-p");

        CompletionStage<?> first = reads.read(pod, live -> charge(charged));
        CompletionStage<?> second = reads.read(pod, live -> charge(charged));

        assertThat(api.held).as("one read").hasSize(1);
        assertThat(second.toCompletableFuture()).as("the joiner waits for the first read's charge").isNotDone();
        api.held.get(0).complete(Optional.empty());
        assertThat(first.toCompletableFuture()).isCompleted();
        assertThat(second.toCompletableFuture()).isCompleted();
        assertThat(charged.get()).isEqualTo(1);

        reads.read(pod, live -> charge(charged));
        assertThat(api.held).as("a read after the first completed is a new one").hasSize(2);
    }

    @Test
    void atMostThirtyTwoReadsAreInFlight() {
        for (int i = 0; i < 40; i++) {
            reads.read(new PodAddress("ns", "p" + i, "uid-" + i), live -> CompletableFuture.completedFuture(null));
        }
        assertThat(api.held).hasSize(LiveReads.IN_FLIGHT);
        api.held.get(0).complete(Optional.empty());
        assertThat(api.held).hasSize(LiveReads.IN_FLIGHT + 1);
    }

    private static CompletionStage<?> charge(AtomicInteger charged) {
        charged.incrementAndGet();
        return CompletableFuture.completedFuture(true);
    }

    /** Reads that answer when the test completes them. */
    private static final class HeldReads implements ReadsOnly {

        final List<CompletableFuture<Optional<ObservedPod>>> held = new ArrayList<>();

        @Override
        public CompletionStage<Optional<ObservedPod>> readPod(PodAddress pod) {
            CompletableFuture<Optional<ObservedPod>> read = new CompletableFuture<>();
            held.add(read);
            return read;
        }

        @Override
        public CompletionStage<Boolean> isGone(PodAddress pod) {
            throw new UnsupportedOperationException();
        }
    }
}
