package io.vgpu.gateway.kube;

import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.vgpu.gateway.testflow.TestFlow.finish;
import static io.vgpu.gateway.testflow.TestFlow.step;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link KeyedSequencer}: one task at a time per key, in call order, nothing blocked. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KubeSequencerTest {

    private final KeyedSequencer sequencer = new KeyedSequencer();

    @Test
    void tasksOfOneKeyStartOnlyAfterThePreviousCompletes(VertxTestContext ctx) {
        CompletableFuture<String> gate = new CompletableFuture<>();
        List<String> started = new CopyOnWriteArrayList<>();

        var first = sequencer.run("n1", () -> {
            started.add("first");
            return gate;
        });
        var second = sequencer.run("n1", () -> {
            started.add("second");
            return CompletableFuture.completedFuture("b");
        });

        assertThat(started).containsExactly("first");
        gate.complete("a");
        var both = step(first).compose(a -> {
            assertThat(a).isEqualTo("a");
            return step(second);
        });
        finish(ctx, both, b -> {
            assertThat(b).isEqualTo("b");
            assertThat(started).containsExactly("first", "second");
            assertThat(sequencer.activeKeys()).isZero();
        });
    }

    @Test
    void otherKeysAreNotHeldUp(VertxTestContext ctx) {
        sequencer.run("n1", CompletableFuture::new); // never completes

        finish(ctx, step(sequencer.run("n2", () -> CompletableFuture.completedFuture("free"))),
                free -> assertThat(free).isEqualTo("free"));
    }

    @Test
    void aFailedOrThrowingTaskDoesNotBlockTheNext(VertxTestContext ctx) {
        var failed = sequencer.run("n1", () -> CompletableFuture.failedFuture(new IllegalStateException("boom")));
        var thrown = sequencer.run("n1", () -> {
            throw new IllegalStateException("thrown");
        });
        var next = sequencer.run("n1", () -> CompletableFuture.completedFuture("ok"));

        assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
        assertThat(thrown.toCompletableFuture()).isCompletedExceptionally();
        finish(ctx, step(next), ok -> assertThat(ok).isEqualTo("ok"));
    }
}
