package io.vgpu.gateway.core.nodelock;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class LockRetryTest {

    @Test
    void doublesTheWaitAndStretchesItByTheJitter() {
        assertThat(LockRetry.HAMI.delayAfter(1, 0.0)).isEqualTo(Duration.ofMillis(100));
        assertThat(LockRetry.HAMI.delayAfter(2, 0.0)).isEqualTo(Duration.ofMillis(200));
        assertThat(LockRetry.HAMI.delayAfter(4, 0.0)).isEqualTo(Duration.ofMillis(800));
        assertThat(LockRetry.HAMI.delayAfter(1, 0.999)).isBetween(Duration.ofMillis(149), Duration.ofMillis(150));
    }

    @Test
    void describesItselfLikeGosPercentPlusV() {
        assertThat(LockRetry.HAMI.describe()).isEqualTo("{Duration:100ms Factor:2 Jitter:0.5 Steps:5 Cap:0s}");
    }
}
