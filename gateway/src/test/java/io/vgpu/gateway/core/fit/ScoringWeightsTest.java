package io.vgpu.gateway.core.fit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ScoringWeightsTest {

    private static final String PREFIX = "invalid hami.io/device-scoring-weights annotation ";

    static Stream<Arguments> rejects() {
        return Stream.of(
                arguments("trailing comma makes four entries", "slot=1,core=1,memory=1,",
                        "\"slot=1,core=1,memory=1,\": expected slot, core, and memory weights"),
                arguments("empty middle entry", "slot=1,,memory=1",
                        "\"slot=1,,memory=1\": expected key=value entries"),
                arguments("duplicate key wins over the missing one", "slot=1,slot=2,core=1",
                        "\"slot=1,slot=2,core=1\": duplicate \"slot\" weight"),
                arguments("non-integer", "slot=1,core=high,memory=3",
                        "\"slot=1,core=high,memory=3\": \"core\" weight must be an integer"),
                arguments("overflow is not an integer", "slot=1,core=99999999999999999999,memory=1",
                        "\"slot=1,core=99999999999999999999,memory=1\": \"core\" weight must be an integer"),
                arguments("integer check comes before the key check", "bandwidth=x,core=1,memory=1",
                        "\"bandwidth=x,core=1,memory=1\": \"bandwidth\" weight must be an integer"),
                arguments("empty key is unknown", "=1,core=1,memory=1",
                        "\"=1,core=1,memory=1\": unknown weight \"\""),
                arguments("keys are case-sensitive", "Slot=1,core=1,memory=1",
                        "\"Slot=1,core=1,memory=1\": unknown weight \"Slot\""),
                arguments("value and key are Go-quoted", "slot=1,core=1,me\"m=1",
                        "\"slot=1,core=1,me\\\"m=1\": unknown weight \"me\\\"m\""),
                arguments("control characters are escaped", "slot=1\n,core=1",
                        "\"slot=1\\n,core=1\": expected slot, core, and memory weights"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void rejects(String name, String value, String message) {
        ScoringWeights.Parsed parsed = ScoringWeights.parse(value);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.weights()).isNull();
        assertThat(parsed.error()).isEqualTo(PREFIX + message);
    }

    static Stream<Arguments> accepts() {
        return Stream.of(
                arguments("plus sign", "slot=+2,core=1,memory=0", new ScoringWeights(2, 1, 0)),
                arguments("Go white space around entries", "\u00a0slot = 1 ,core=0,memory=0\u3000",
                        new ScoringWeights(1, 0, 0)),
                arguments("64-bit weights", "slot=9223372036854775807,core=0,memory=0",
                        new ScoringWeights(Long.MAX_VALUE, 0, 0)),
                arguments("all ones", "slot=1,core=1,memory=1",
                        new ScoringWeights(1, 1, 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void accepts(String name, String value, ScoringWeights expected) {
        assertThat(ScoringWeights.parse(value).weights()).isEqualTo(expected);
    }

    @Test
    void secondEqualsSignStaysInTheValue() {
        assertThat(ScoringWeights.parse("slot=1=2,core=1,memory=1").error())
                .isEqualTo(PREFIX + "\"slot=1=2,core=1,memory=1\": \"slot\" weight must be an integer");
    }

    @Test
    void absentAnnotationMeansEqualWeightsButEmptyValueIsInvalid() {
        assertThat(ScoringWeights.fromPod(Map.of()).weights()).isEqualTo(ScoringWeights.DEFAULT);
        assertThat(ScoringWeights.fromPod(null).weights()).isEqualTo(ScoringWeights.DEFAULT);
        assertThat(ScoringWeights.fromPod(Map.of("hami.io/device-scoring-weights", "")).ok()).isFalse();
    }
}
