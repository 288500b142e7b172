package io.vgpu.state.codec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class GoDurationTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "PT0S, 0s",
            "PT5M, 5m0s",
            "PT2M, 2m0s",
            "PT28S, 28s",
            "PT1H, 1h0m0s",
            "PT1H2M3.5S, 1h2m3.5s",
            "PT0.1S, 100ms",
            "PT0.0000015S, 1.5µs",
            "PT0.000000001S, 1ns",
            "PT-5M, -5m0s",
            "PT30H, 30h0m0s"})
    void formatsLikeGoDurationString(Duration d, String text) {
        assertThat(GoDuration.format(d)).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "5m, PT5M",
            "28s, PT28S",
            "1h30m, PT1H30M",
            "1.5s, PT1.5S",
            "100ms, PT0.1S",
            "-2m, PT-2M",
            "+3s, PT3S",
            "0, PT0S",
            "300us, PT0.0003S",
            ".5s, PT0.5S",
            "250µs, PT0.00025S",
            "7ns, PT0.000000007S",
            "0s, PT0S",
            "1h0m0s, PT1H",
            "2562047h, PT2562047H"})
    void parsesGoDurations(String text, Duration d) {
        assertThat(GoDuration.parse(text).value()).isEqualTo(d);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "|time: invalid duration \"\"",
            "5|time: missing unit in duration \"5\"",
            "5x|time: unknown unit \"x\" in duration \"5x\"",
            "m|time: invalid duration \"m\"",
            "-|time: invalid duration \"-\"",
            "9999999999h|time: invalid duration \"9999999999h\"",
            "9999999h|time: invalid duration \"9999999h\"",
            "1.2.3s|time: missing unit in duration \"1.2.3s\"",
            "5 m|time: unknown unit \" m\" in duration \"5 m\"",
            "--5s|time: invalid duration \"--5s\"",
            ".s|time: invalid duration \".s\"",
            "1d|time: unknown unit \"d\" in duration \"1d\""})
    void rejectsBadDurationsWithGosMessages(String text, String error) {
        assertThat(GoDuration.parse(text == null ? "" : text).error()).isEqualTo(error);
    }
}
