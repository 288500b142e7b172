package io.vgpu.gateway.core.nodelock;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class LockNodeTest {

    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final NamespacedName ME = new NamespacedName("hami-ns", "hami");
    private static final String CONTENTION = "node n1 has been locked within 5m0s: node lock contention";

    private static String lockAt(String time, String owner) {
        return time + owner;
    }

    static Stream<Arguments> decides() {
        return Stream.of(
                arguments(Named.of("node unreadable", new NodeRead.Failed("nodes \"n1\" not found")),
                        new LockStep.Failed("nodes \"n1\" not found")),
                arguments(Named.of("free node", NodeRead.unlocked()), new LockStep.Acquire(null, LockStep.TakeOverReason.FREE)),
                arguments(Named.of("malformed value", NodeRead.locked("a,b")),
                        new LockStep.Failed("malformed lock annotation: expected 3 parts, got 2 from a,b")),
                arguments(Named.of("unparsable legacy value", NodeRead.locked("lock")), new LockStep.Failed(
                        "parsing time \"lock\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"lock\" as \"2006\"")),
                arguments(Named.of("empty value", NodeRead.locked("")), new LockStep.Failed(
                        "parsing time \"\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"2006\"")),
                arguments(Named.of("expired lock of another pod", NodeRead.locked(lockAt("2026-08-01T05:54:59Z", ",o,p"))),
                        new LockStep.Acquire("2026-08-01T05:54:59Z,o,p", LockStep.TakeOverReason.EXPIRED)),
                arguments(Named.of("expired lock of this pod", NodeRead.locked(lockAt("2026-08-01T05:50:00Z", ",hami-ns,hami"))),
                        new LockStep.Acquire("2026-08-01T05:50:00Z,hami-ns,hami", LockStep.TakeOverReason.EXPIRED)),
                arguments(Named.of("exactly the timeout old is not expired", NodeRead.locked(lockAt("2026-08-01T05:55:00Z", ",o,p"))),
                        new LockStep.LookUpOwner(new NamespacedName("o", "p"), "2026-08-01T05:55:00Z,o,p", CONTENTION)),
                arguments(Named.of("expired legacy lock", NodeRead.locked("2026-08-01T05:00:00Z")),
                        new LockStep.Acquire("2026-08-01T05:00:00Z", LockStep.TakeOverReason.EXPIRED)),
                arguments(Named.of("fresh lock of this pod", NodeRead.locked(lockAt("2026-08-01T06:00:00Z", ",hami-ns,hami"))),
                        new LockStep.AlreadyHeld()),
                arguments(Named.of("same name other namespace", NodeRead.locked(lockAt("2026-08-01T06:00:00Z", ",other,hami"))),
                        new LockStep.LookUpOwner(new NamespacedName("other", "hami"), "2026-08-01T06:00:00Z,other,hami", CONTENTION)),
                arguments(Named.of("fresh legacy lock", NodeRead.locked("2026-08-01T06:00:00Z")), new LockStep.Contended(CONTENTION)),
                arguments(Named.of("fresh lock with empty owner", NodeRead.locked("2026-08-01T06:00:00Z,,")),
                        new LockStep.Contended(CONTENTION)),
                arguments(Named.of("lock from the future", NodeRead.locked("2026-08-01T07:00:00Z,o,p")),
                        new LockStep.LookUpOwner(new NamespacedName("o", "p"), "2026-08-01T07:00:00Z,o,p", CONTENTION)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void decides(NodeRead read, LockStep expected) {
        assertThat(LockNode.decide(read, "n1", ME, TIMEOUT, NOW)).isEqualTo(expected);
    }

    @Test
    void ownerLookupResolvesToContentionTakeOverOrFailure() {
        LockStep.LookUpOwner lookUp = new LockStep.LookUpOwner(new NamespacedName("o", "p"), "2026-08-01T06:00:00Z,o,p", CONTENTION);

        assertThat(lookUp.resolve(new OwnerLookup.Exists())).isEqualTo(new LockStep.Contended(CONTENTION));
        assertThat(lookUp.resolve(new OwnerLookup.NotFound()))
                .isEqualTo(new LockStep.Acquire("2026-08-01T06:00:00Z,o,p", LockStep.TakeOverReason.DANGLING));
        assertThat(lookUp.resolve(new OwnerLookup.Failed("etcdserver: request timed out")))
                .isEqualTo(new LockStep.Failed("etcdserver: request timed out"));
    }

    @Test
    void contentionMessageUsesGoDurationText() {
        assertThat(LockNode.contentionMessage("n", Duration.ofMinutes(2))).isEqualTo("node n has been locked within 2m0s: node lock contention");
        assertThat(LockNode.contentionMessage("n", Duration.ofSeconds(90))).isEqualTo("node n has been locked within 1m30s: node lock contention");
    }
}
