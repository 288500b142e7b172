package io.vgpu.gateway.core.nodelock;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ReleaseNodeLockTest {

    private static final NamespacedName ME = new NamespacedName("ns", "pod-a");
    private static final String MINE = "2026-08-01T06:00:00Z,ns,pod-a";
    private static final String MINE_RESTAMPED = "2026-08-01T06:00:05Z,ns,pod-a";
    private static final String THEIRS = "2026-08-01T06:00:00Z,ns,pod-b";
    private static final String LEGACY = "2026-08-01T06:00:00Z";

    private static ReleaseStep leave(ReleaseStep.LeaveReason reason) {
        return new ReleaseStep.Leave(reason);
    }

    static Stream<Arguments> firstLook() {
        return Stream.of(
                arguments(Named.of("node unreadable", new NodeRead.Failed("gone")), false, new ReleaseStep.Failed("gone")),
                arguments(Named.of("no lock", NodeRead.unlocked()), false, leave(ReleaseStep.LeaveReason.NOT_LOCKED)),
                arguments(Named.of("own lock", NodeRead.locked(MINE)), false, new ReleaseStep.Remove(MINE)),
                arguments(Named.of("another pod's lock", NodeRead.locked(THEIRS)), false, leave(ReleaseStep.LeaveReason.NOT_OWNER)),
                arguments(Named.of("another pod's lock, owner check off", NodeRead.locked(THEIRS)), true, new ReleaseStep.Remove(THEIRS)),
                arguments(Named.of("legacy lock", NodeRead.locked(LEGACY)), false, new ReleaseStep.Remove(LEGACY)),
                arguments(Named.of("malformed lock with commas", NodeRead.locked("a,b")), false, leave(ReleaseStep.LeaveReason.NOT_OWNER)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void firstLook(NodeRead read, boolean skipOwnerCheck, ReleaseStep expected) {
        assertThat(ReleaseNodeLock.firstLook(read, ME, skipOwnerCheck)).isEqualTo(expected);
    }

    static Stream<Arguments> recheck() {
        return Stream.of(
                arguments(Named.of("read failed", new NodeRead.Failed("timeout")), MINE, false, new ReleaseStep.Retry("timeout")),
                arguments(Named.of("already gone", NodeRead.unlocked()), MINE, false, leave(ReleaseStep.LeaveReason.NOT_LOCKED)),
                arguments(Named.of("still mine", NodeRead.locked(MINE)), MINE, false, new ReleaseStep.Patch()),
                arguments(Named.of("re-stamped by me", NodeRead.locked(MINE_RESTAMPED)), MINE, false, new ReleaseStep.Patch()),
                arguments(Named.of("taken by another pod", NodeRead.locked(THEIRS)), MINE, false, leave(ReleaseStep.LeaveReason.CHANGED)),
                arguments(Named.of("legacy unchanged", NodeRead.locked(LEGACY)), LEGACY, false, new ReleaseStep.Patch()),
                arguments(Named.of("legacy replaced", NodeRead.locked("2026-08-01T06:00:09Z")), LEGACY, false,
                        leave(ReleaseStep.LeaveReason.CHANGED)),
                arguments(Named.of("owner check off, unchanged", NodeRead.locked(THEIRS)), THEIRS, true, new ReleaseStep.Patch()),
                arguments(Named.of("owner check off, re-stamped", NodeRead.locked(MINE_RESTAMPED)), MINE, true,
                        leave(ReleaseStep.LeaveReason.CHANGED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void recheck(NodeRead read, String expected, boolean skipOwnerCheck, ReleaseStep step) {
        assertThat(ReleaseNodeLock.recheck(read, expected, ME, skipOwnerCheck)).isEqualTo(step);
    }

    @Test
    void exhaustedNamesTheNodeAndCause() {
        assertThat(ReleaseNodeLock.exhausted("n1", "conflict"))
                .isEqualTo("failed to release node lock (node=n1, retry strategy={Duration:100ms Factor:2 Jitter:0.5 Steps:5 Cap:0s}): conflict");
    }
}
