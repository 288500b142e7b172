package io.vgpu.gateway.http;

import org.junit.jupiter.api.Test;

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
    void concurrentAcquiresNeverPassTheBound() throws InterruptedException {
        InFlightLimiter limiter = new InFlightLimiter("/bind", 7);
        int[] granted = new int[8];
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            int slot = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    if (limiter.tryAcquire()) {
                        granted[slot]++;
                        assertThat(limiter.inFlight()).isLessThanOrEqualTo(7);
                        limiter.release();
                    }
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(limiter.inFlight()).isZero();
    }

    @Test
    void rejectsABoundBelowOne() {
        assertThatThrownBy(() -> new InFlightLimiter("/x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
