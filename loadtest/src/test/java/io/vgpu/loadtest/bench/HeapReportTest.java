package io.vgpu.loadtest.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A replica's {@code heap} answer, as {@link Deployment#heaps} reads it. */
class HeapReportTest {

    @Test
    void answerIsUsedAfterGcThenMaxAndReadsBack() throws InterruptedException {
        String line = HeapReport.line();
        assertThat(line).startsWith(HeapReport.WORD + " ");
        long[] heap = HeapReport.parse(line.substring(HeapReport.WORD.length() + 1));
        assertThat(heap[0]).isPositive();
        assertThat(heap[1]).isEqualTo(Runtime.getRuntime().maxMemory());
        assertThat(heap[0]).isLessThanOrEqualTo(heap[1]);
    }

    /**
     * The figure is the heap at the end of the collection: a thread allocating garbage meanwhile (a busy replica)
     * leaves it where it is without that thread. Read after the collection, it counted up to a young generation of
     * garbage more.
     */
    @Test
    void garbageAllocatedAfterTheCollectionIsNotCounted() throws InterruptedException {
        byte[][] held = new byte[64][];
        for (int i = 0; i < held.length; i++) {
            held[i] = new byte[1 << 20];
        }
        long quiet = HeapReport.usedAfterGc();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sink = new AtomicLong();
        Thread allocator = new Thread(() -> {
            while (!stop.get()) {
                sink.addAndGet(new byte[1 << 16].length);
            }
        });
        allocator.start();
        long busy;
        try {
            busy = HeapReport.usedAfterGc();
        } finally {
            stop.set(true);
            allocator.join();
        }

        assertThat(held[held.length - 1]).hasSize(1 << 20); // still reachable here
        assertThat(quiet).as("the 64 MiB held").isGreaterThanOrEqualTo(64L << 20);
        assertThat(busy).as("with garbage allocated meanwhile (quiet: %d bytes)", quiet)
                .isBetween(quiet - (8L << 20), quiet + (8L << 20));
    }

    @Test
    void answerThatIsNotTwoNumbersIsRefused() {
        assertThatThrownBy(() -> HeapReport.parse("123")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeapReport.parse("12 MiB")).isInstanceOf(NumberFormatException.class);
    }
}
