package io.vgpu.gateway.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GoDurationTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({"5m, 300000000000", "28s, 28000000000", "100ms, 100000000", "1h30m, 5400000000000",
        "1.5s, 1500000000", "0, 0", "0s, 0", "+2s, 2000000000", "-2s, -2000000000", "250us, 250000",
        "250µs, 250000", "7ns, 7", ".5s, 500000000", "1h0m0s, 3600000000000", "2562047h, 9223369200000000000"})
    void parsesGoDurations(String text, long nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "5", "m", "5 m", "5x", "1.2.3s", "--5s", "5s ", ".s", "9999999h", "1d"})
    void rejectsWhatGoRejects(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(text.isEmpty() ? "invalid duration" : "");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"300000000000, 5m0s", "28000000000, 28s", "100000000, 100ms", "5400000000000, 1h30m0s",
        "1500000000, 1.5s", "0, 0s", "250000, 250us"})
    void formatsLikeGo(long nanos, String text) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }
}
