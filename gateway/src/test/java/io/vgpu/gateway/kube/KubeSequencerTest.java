package io.vgpu.gateway.kube;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.vgpu.gateway.kube.KubeFixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link KeyedSequencer}: one task at a time per key, in call order, nothing blocked. */
class KubeSequencerTest {

    private final KeyedSequencer sequencer = new KeyedSequencer();

    @Test
    void tasksOfOneKeyStartOnlyAfterThePreviousCompletes() {
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
        assertThat(await(first)).isEqualTo("a");
        assertThat(await(second)).isEqualTo("b");
        assertThat(started).containsExactly("first", "second");
        assertThat(sequencer.activeKeys()).isZero();
    }

    @Test
    void otherKeysAreNotHeldUp() {
        sequencer.run("n1", CompletableFuture::new); // never completes

        assertThat(await(sequencer.run("n2", () -> CompletableFuture.completedFuture("free")))).isEqualTo("free");
    }

    @Test
    void aFailedOrThrowingTaskDoesNotBlockTheNext() {
        var failed = sequencer.run("n1", () -> CompletableFuture.failedFuture(new IllegalStateException("boom")));
        var thrown = sequencer.run("n1", () -> {
            throw new IllegalStateException("thrown");
        });
        var next = sequencer.run("n1", () -> CompletableFuture.completedFuture("ok"));

        assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
        assertThat(thrown.toCompletableFuture()).isCompletedExceptionally();
        assertThat(await(next)).isEqualTo("ok");
    }
}
