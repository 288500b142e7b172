package io.vgpu.loadtest.bench;

import org.junit.jupiter.api.Test;

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

    @Test
    void answerThatIsNotTwoNumbersIsRefused() {
        assertThatThrownBy(() -> HeapReport.parse("123")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeapReport.parse("12 MiB")).isInstanceOf(NumberFormatException.class);
    }
}
