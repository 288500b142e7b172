package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class HandshakeCodecTest {

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    @Test
    void writesRequestingWithTheLocalTime() {
        assertThat(HandshakeCodec.requesting(Instant.parse("2026-08-01T06:00:00.7Z"), SHANGHAI))
                .isEqualTo("Requesting_2026-08-01 14:00:00");
    }

    @Test
    void readsTheStampBackInTheSameZone() {
        Instant t = Instant.parse("2026-08-01T06:00:00Z");

        assertThat(HandshakeCodec.requestedAt(HandshakeCodec.requesting(t, SHANGHAI), SHANGHAI).value()).isEqualTo(t);
    }

    @Test
    void readsTheTextAfterTheFirstUnderscore() {
        assertThat(HandshakeCodec.requestedAt("xRequesting_2026-08-01 14:00:00", SHANGHAI).value())
                .isEqualTo(Instant.parse("2026-08-01T06:00:00Z"));
        assertThat(HandshakeCodec.requestedAt("Requesting_2026-08-01 14:00:00_x", SHANGHAI).isOk()).isFalse();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @NullSource
    @ValueSource(strings = {"Requesting", "Requesting_", "Requesting_2026-08-01", "Requesting_garbage", "Requesting_2026-02-30 00:00:00"})
    void reportsStampsThatDoNotParse(String value) {
        assertThat(HandshakeCodec.requestedAt(value, SHANGHAI).isOk()).isFalse();
    }

    @Test
    void recognisesAPendingStampAnywhereInTheValue() {
        assertThat(HandshakeCodec.isRequesting("Requesting_2026-08-01 14:00:00")).isTrue();
        assertThat(HandshakeCodec.isRequesting("xRequestingx")).isTrue();
        assertThat(HandshakeCodec.isRequesting("Deleted_2026")).isFalse();
        assertThat(HandshakeCodec.isRequesting(null)).isFalse();
    }
}
