package io.vgpu.gateway.core.nodelock;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class SetNodeLockTest {

    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");
    private static final NamespacedName ME = new NamespacedName("ns", "pod-a");

    @Test
    void precheckTreatsAnyLockAsContention() {
        assertThat(SetNodeLock.precheck(NodeRead.unlocked(), "n1")).isEqualTo(new SetStep.Proceed());
        assertThat(SetNodeLock.precheck(NodeRead.locked("2026-08-01T06:00:00Z,ns,pod-a"), "n1"))
                .isEqualTo(new SetStep.Contended("node n1 is locked: node lock contention"));
        assertThat(SetNodeLock.precheck(NodeRead.locked(""), "n1")).isInstanceOf(SetStep.Contended.class);
        assertThat(SetNodeLock.precheck(new NodeRead.Failed("boom"), "n1")).isEqualTo(new SetStep.Failed("boom"));
    }

    @Test
    void attemptPatchesAFreeNodeWithTheLocalTime() {
        assertThat(SetNodeLock.attempt(NodeRead.unlocked(), "n1", ME, NOW, ZoneOffset.UTC))
                .isEqualTo(new SetStep.Patch("2026-08-01T06:00:00Z,ns,pod-a"));
        assertThat(SetNodeLock.attempt(NodeRead.unlocked(), "n1", ME, NOW, ZoneId.of("Asia/Shanghai")))
                .isEqualTo(new SetStep.Patch("2026-08-01T14:00:00+08:00,ns,pod-a"));
    }

    @Test
    void attemptTreatsOurOwnLockAsALostPatchResponse() {
        assertThat(SetNodeLock.attempt(NodeRead.locked("2026-08-01T05:59:59Z,ns,pod-a"), "n1", ME, NOW, ZoneOffset.UTC))
                .isEqualTo(new SetStep.Done());
    }

    @Test
    void attemptStopsOnSomebodyElsesLock() {
        assertThat(SetNodeLock.attempt(NodeRead.locked("2026-08-01T05:59:59Z,ns,pod-b"), "n1", ME, NOW, ZoneOffset.UTC))
                .isEqualTo(new SetStep.Contended("node n1 is locked: node lock contention"));
        assertThat(SetNodeLock.attempt(NodeRead.locked("2026-08-01T05:59:59Z"), "n1", ME, NOW, ZoneOffset.UTC))
                .isInstanceOf(SetStep.Contended.class);
        assertThat(SetNodeLock.attempt(NodeRead.locked("x,other-ns,pod-a"), "n1", ME, NOW, ZoneOffset.UTC))
                .isInstanceOf(SetStep.Contended.class);
    }

    @Test
    void attemptRetriesAFailedRead() {
        assertThat(SetNodeLock.attempt(new NodeRead.Failed("timeout"), "n1", ME, NOW, ZoneOffset.UTC))
                .isEqualTo(new SetStep.Retry("timeout"));
    }

    @Test
    void exhaustedWrapsTheCauseWithTheRetryStrategy() {
        assertThat(SetNodeLock.exhausted("n1", "node n1 is locked: node lock contention")).isEqualTo(
                "failed to set node lock (node=n1, retry strategy={Duration:100ms Factor:2 Jitter:0.5 Steps:5 Cap:0s}): "
                        + "node n1 is locked: node lock contention");
    }
}
