package io.vgpu.state.codec;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class GoJsonTextTest {

    static Stream<Arguments> escapesLikeGoEncodingJson() {
        return Stream.of(
                arguments(Named.of("plain", "NVIDIA-Tesla V100"), "\"NVIDIA-Tesla V100\""),
                arguments(Named.of("quote and backslash", "a\"b\\"), "\"a\\\"b\\\\\""),
                arguments(Named.of("short escapes", "\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\""),
                arguments(Named.of("other control characters", "\u0000\u001f"), "\"\\u0000\\u001f\""),
                arguments(Named.of("HTML characters", "<a>&"), "\"\\u003ca\\u003e\\u0026\""),
                arguments(Named.of("line and paragraph separators", "\u2028\u2029"), "\"\\u2028\\u2029\""),
                arguments(Named.of("DEL and non-ASCII unchanged", "\u007fé€"), "\"\u007fé€\""),
                arguments(Named.of("supplementary character unchanged", "\ud83d\ude00"), "\"\ud83d\ude00\""),
                arguments(Named.of("lone surrogate replaced", "x\udc00y"), "\"x\\ufffdy\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void escapesLikeGoEncodingJson(String input, String json) {
        assertThat(GoJsonText.appendString(new StringBuilder(), input).toString()).isEqualTo(json);
    }
}
