package io.vgpu.gateway.kube;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TokenBucket}: the client-side QPS/burst limit. */
class KubeTokenBucketTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong();

    @Test
    void aFullBucketLetsTheBurstThroughAtOnce() {
        TokenBucket bucket = new TokenBucket(10, 3, now::get);

        assertThat(new long[] {bucket.reserve(0), bucket.reserve(0), bucket.reserve(0)}).containsOnly(0L);
    }

    @Test
    void pastTheBurstCallsWaitForTheNextTokenInTurn() {
        TokenBucket bucket = new TokenBucket(10, 1, now::get);
        bucket.reserve(0);

        assertThat(bucket.reserve(Long.MAX_VALUE)).isEqualTo(100 * MS);
        assertThat(bucket.reserve(Long.MAX_VALUE)).isEqualTo(200 * MS);
    }

    @Test
    void aCallThatWouldWaitTooLongTakesNothing() {
        TokenBucket bucket = new TokenBucket(10, 1, now::get);
        bucket.reserve(0);

        assertThat(bucket.reserve(50 * MS)).isEqualTo(-1);
        assertThat(bucket.reserve(100 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void tokensRefillWithTimeUpToTheBurst() {
        TokenBucket bucket = new TokenBucket(10, 2, now::get);
        bucket.reserve(0);
        bucket.reserve(0);

        now.addAndGet(10_000 * MS);

        assertThat(bucket.reserve(0)).isZero();
        assertThat(bucket.reserve(0)).isZero();
        assertThat(bucket.reserve(0)).isEqualTo(-1);
    }

    @Test
    void aNonPositiveRateMeansUnlimited() {
        TokenBucket bucket = new TokenBucket(0, 1, now::get);

        for (int i = 0; i < 100; i++) {
            assertThat(bucket.reserve(0)).isZero();
        }
    }
}
