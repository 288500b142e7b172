package io.vgpu.loadtest.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.WriteOutcome;
import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replica calls its {@link RemoteSink} from the gateway's event loops, another Vert.x instance's threads, and those
 * loops are busy (a filter decides over hundreds of nodes on them). Every call must still be answered: the exchange
 * runs on the sink client's own context. When it ran on whatever context the caller's thread brought, a response could
 * end before its body was read and the call never completed: the full benchmark's {@code /filter} rows answered
 * nothing after a few dozen filters.
 */
class RemoteSinkCallsTest {

    private static final int CALLERS = 4;
    private static final int CALLS_EACH = 400;

    @Test
    void callsFromBusyLoopsOfAnotherVertxAreAllAnswered() throws Exception {
        Vertx gateway = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(CALLERS));
        try (FastApiSink sink = new FastApiSink(Duration.ZERO)) {
            for (int i = 0; i < CALLERS; i++) {
                sink.createPod(new PodSpec("p-" + i, "ns", "uid-" + i, "", "", "", Map.of(), Map.of(), List.of(),
                        List.of()));
            }
            try (SinkServer server = SinkServer.start(sink); RemoteSink remote = RemoteSink.connect(server.port())) {
                AtomicInteger answered = new AtomicInteger();
                List<String> failures = new ArrayList<>();
                for (int i = 0; i < CALLERS; i++) {
                    PodAddress pod = new PodAddress("ns", "p-" + i, "uid-" + i);
                    gateway.getOrCreateContext().runOnContext(v -> patchInTurn(remote, pod, 0, answered, failures));
                }
                Eventually.within(Duration.ofSeconds(60), "all " + CALLERS * CALLS_EACH + " calls answered",
                        () -> answered.get() == CALLERS * CALLS_EACH);
                synchronized (failures) {
                    assertThat(failures).isEmpty();
                }
            }
        } finally {
            gateway.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** One caller: a patch, then a busy spell on the caller's loop while the answer arrives, then the next. */
    private static void patchInTurn(RemoteSink remote, PodAddress pod, int n, AtomicInteger answered,
                                    List<String> failures) {
        if (n == CALLS_EACH) {
            return;
        }
        Future<WriteOutcome> call = Future.fromCompletionStage(remote.patchFilterAnnotations(pod,
                Map.of("n", Integer.toString(n)), Map.of()), Vertx.currentContext());
        busy(Duration.ofMillis(n % 3));
        call.onComplete(outcome -> {
            answered.incrementAndGet();
            if (outcome.failed() || !outcome.result().ok()) {
                synchronized (failures) {
                    failures.add(pod.name() + " #" + n + ": " + (outcome.failed() ? outcome.cause() : outcome.result()));
                }
            }
            patchInTurn(remote, pod, n + 1, answered, failures);
        });
    }

    private static void busy(Duration d) {
        long until = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
