package io.vgpu.deviceplugin.core.pending;

import io.vgpu.deviceplugin.testing.FakeCluster;
import io.vgpu.state.codec.HamiAnnotations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class NodeLockReleaserTest {

    private static final PodRef POD = new PodRef("ns", "p");

    static Stream<Arguments> decisions() {
        return Stream.of(
                Arguments.of("no lock", null, LockRelease.Decision.NOT_LOCKED),
                Arguments.of("own lock", "2026-01-01T00:00:00Z,ns,p", LockRelease.Decision.REMOVE),
                Arguments.of("own lock re-stamped", "2026-01-01T00:09:00+08:00,ns,p", LockRelease.Decision.REMOVE),
                Arguments.of("legacy lock", "2026-01-01T00:00:00Z", LockRelease.Decision.REMOVE),
                Arguments.of("other pod", "2026-01-01T00:00:00Z,ns,q", LockRelease.Decision.NOT_OWNER),
                Arguments.of("same name, other namespace", "2026-01-01T00:00:00Z,other,p", LockRelease.Decision.NOT_OWNER),
                Arguments.of("name is a suffix of the owner", "2026-01-01T00:00:00Z,ns,xp", LockRelease.Decision.NOT_OWNER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisions")
    void decidesByOwner(String name, String lock, LockRelease.Decision expected) {
        assertThat(LockRelease.decide(lock, POD)).isEqualTo(expected);
    }

    @Test
    void skippingTheOwnerCheckRemovesAnyLockButThePluginNeverSkipsIt() {
        assertThat(LockRelease.decide("2026-01-01T00:00:00Z,ns,q", POD, true)).isEqualTo(LockRelease.Decision.REMOVE);
        assertThat(LockRelease.decide(null, POD, true)).isEqualTo(LockRelease.Decision.NOT_LOCKED);
        FakeCluster cluster = new FakeCluster().node("n", Map.of(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:00Z,ns,q"));
        assertThat(new NodeLockReleaser(cluster).release("n", POD).toCompletableFuture().join())
                .isEqualTo(new LockReleaseResult.Left(LockRelease.Decision.NOT_OWNER));
    }

    @Test
    void retriesAfterConflictsAndRemovesTheLock() {
        FakeCluster cluster = new FakeCluster().node("n", Map.of(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:00Z,ns,p"));
        cluster.injectLockConflicts(3);

        LockReleaseResult result = new NodeLockReleaser(cluster, 5, Duration.ofMillis(1)).release("n", POD).toCompletableFuture().join();

        assertThat(result).isEqualTo(new LockReleaseResult.Removed());
        assertThat(cluster.nodeAnnotations("n")).doesNotContainKey(HamiAnnotations.NODE_LOCK);
    }

    @Test
    void givesUpAfterTheLastAttemptWithTheLastError() {
        FakeCluster cluster = new FakeCluster().node("n", Map.of(HamiAnnotations.NODE_LOCK, "2026-01-01T00:00:00Z,ns,p"));
        cluster.injectLockConflicts(10);

        LockReleaseResult result = new NodeLockReleaser(cluster, 3, Duration.ZERO).release("n", POD).toCompletableFuture().join();

        assertThat(result).isInstanceOfSatisfying(LockReleaseResult.Failed.class, f -> assertThat(f.message())
                .startsWith("failed to release node lock of ns/p on node n after 3 attempts: ")
                .contains("the object has been modified"));
        assertThat(cluster.nodeAnnotations("n")).containsKey(HamiAnnotations.NODE_LOCK);
    }

    @Test
    void missingNodeIsAFailedRelease() {
        LockReleaseResult result = new NodeLockReleaser(new FakeCluster()).release("n", POD).toCompletableFuture().join();
        assertThat(result).isEqualTo(new LockReleaseResult.Failed("nodes \"n\" not found"));
    }
}
