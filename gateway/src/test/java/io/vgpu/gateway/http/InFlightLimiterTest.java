package io.vgpu.gateway.http;

import io.vgpu.testsupport.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InFlightLimiterTest {

    @Test
    void admitsUpToTheBoundAndAgainAfterARelease() {
        InFlightLimiter limiter = new InFlightLimiter("/filter", 2);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        assertThat(limiter.inFlight()).isEqualTo(2);
        limiter.release();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.inFlight()).isEqualTo(2);
    }

    @Test
    void concurrentAcquiresNeverPassTheBound() {
        InFlightLimiter limiter = new InFlightLimiter("/bind", 7);
        // an assertion thrown on a worker thread would not fail the test: the workers record, the test asserts
        AtomicInteger mostSeen = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    if (limiter.tryAcquire()) {
                        granted.incrementAndGet();
                        mostSeen.accumulateAndGet(limiter.inFlight(), Math::max);
                        limiter.release();
                    }
                }
            });
            threads[t].start();
        }
        Eventually.within(Duration.ofSeconds(30), "every worker done",
                () -> Arrays.stream(threads).noneMatch(Thread::isAlive));
        assertThat(granted.get()).as("the workers ran").isPositive();
        assertThat(mostSeen.get()).isBetween(1, 7);
        assertThat(limiter.inFlight()).isZero();
    }

    @Test
    void rejectsABoundBelowOne() {
        assertThatThrownBy(() -> new InFlightLimiter("/x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
