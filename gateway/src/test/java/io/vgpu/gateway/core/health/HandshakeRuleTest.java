package io.vgpu.gateway.core.health;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.time.ZoneId;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class HandshakeRuleTest {

    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z"); // 14:00:00 in ZONE

    private static HandshakeStep settled(boolean healthy) {
        return new HandshakeStep.Settled(new HealthVerdict(healthy, false));
    }

    static Stream<Arguments> appliesTheRule() {
        return Stream.of(
                arguments(Named.of("future stamp", "Requesting_2128-12-02 00:00:00"), 0, settled(true)),
                arguments(Named.of("stamp written now", "Requesting_2026-08-01 14:00:00"), 0, settled(true)),
                arguments(Named.of("stamp 59 s old", "Requesting_2026-08-01 13:59:01"), 0, settled(true)),
                arguments(Named.of("stamp exactly 60 s old", "Requesting_2026-08-01 13:59:00"), 0, settled(false)),
                arguments(Named.of("expired, no allocatable", "Requesting_2024-01-02 00:00:00"), 0, settled(false)),
                arguments(Named.of("expired, allocatable present", "Requesting_2024-01-02 00:00:00"), 8, settled(true)),
                arguments(Named.of("no underscore", "Requesting"), 0, settled(true)),
                arguments(Named.of("unparsable stamp", "Requesting_yesterday"), 0, settled(true)),
                arguments(Named.of("absent", null), 4, new HandshakeStep.Stamp("Requesting_2026-08-01 14:00:00")),
                arguments(Named.of("unknown value", "Unknown"), 0, new HandshakeStep.Stamp("Requesting_2026-08-01 14:00:00")),
                arguments(Named.of("old Reported value", "Reported_2026-08-01 13:00:00"), 0,
                        new HandshakeStep.Stamp("Requesting_2026-08-01 14:00:00")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void appliesTheRule(String handshake, long allocatable, HandshakeStep expected) {
        assertThat(HandshakeRule.check(handshake, allocatable, NOW, ZONE)).isEqualTo(expected);
    }

    @Test
    void aStampIsHealthyAndNeedsAnUpdateOnlyWhenTheNodeWasRead() {
        HandshakeStep.Stamp stamp = new HandshakeStep.Stamp("Requesting_2026-08-01 14:00:00");

        assertThat(stamp.afterNodeGet(true)).isEqualTo(new HealthVerdict(true, true));
        assertThat(stamp.afterNodeGet(false)).isEqualTo(new HealthVerdict(true, false));
    }
}
