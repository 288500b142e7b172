package io.vgpu.gateway.core.fit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class GoTextTest {

    static Stream<Arguments> trimSpace() {
        return Stream.of(
                arguments("ascii blanks", " \t a b \n\r", "a b"),
                arguments("no-break space and NEL are Go spaces", "\u00a0x\u0085", "x"),
                arguments("ideographic space", "\u3000x\u3000", "x"),
                arguments("zero-width space is not a Go space", "\u200bx", "\u200bx"),
                arguments("file separator is not a Go space (Java strip() would trim it)", "\u001cx", "\u001cx"),
                arguments("all blank", " \u00a0 ", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void trimSpace(String name, String input, String expected) {
        assertThat(GoText.trimSpace(input)).isEqualTo(expected);
    }

    static Stream<Arguments> parseInt64() {
        return Stream.of(
                arguments("plain", "42", 42L),
                arguments("plus sign", "+7", 7L),
                arguments("negative zero", "-0", 0L),
                arguments("max", "9223372036854775807", Long.MAX_VALUE),
                arguments("min", "-9223372036854775808", Long.MIN_VALUE),
                arguments("overflow", "9223372036854775808", null),
                arguments("empty", "", null),
                arguments("sign only", "-", null),
                arguments("inner blank", "1 2", null),
                arguments("underscore (base 10 forbids it)", "1_000", null),
                arguments("arabic-indic digit (Java would accept it)", "\u0663", null),
                arguments("hex", "0x10", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void parseInt64(String name, String input, Long expected) {
        assertThat(GoText.parseInt64(input)).isEqualTo(expected);
    }

    static Stream<Arguments> parseBool() {
        return Stream.of(
                arguments("1", Boolean.TRUE), arguments("t", Boolean.TRUE), arguments("T", Boolean.TRUE),
                arguments("TRUE", Boolean.TRUE), arguments("True", Boolean.TRUE), arguments("true", Boolean.TRUE),
                arguments("0", Boolean.FALSE), arguments("F", Boolean.FALSE), arguments("False", Boolean.FALSE),
                arguments("tRUE", null), arguments("yes", null), arguments(" true", null), arguments("", null));
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @MethodSource
    void parseBool(String input, Boolean expected) {
        assertThat(GoText.parseBool(input)).isEqualTo(expected);
    }

    static Stream<Arguments> quote() {
        return Stream.of(
                arguments("plain", "slot=1", "\"slot=1\""),
                arguments("quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\""),
                arguments("named escapes", "\t\n\r\u0007\u000b", "\"\\t\\n\\r\\a\\v\""),
                arguments("other control byte", "\u0001", "\"\\x01\""),
                arguments("delete", "\u007f", "\"\\x7f\""),
                arguments("no-break space is not printable in Go", "\u00a0", "\"\\u00a0\""),
                arguments("printable unicode stays", "é€", "\"é€\""),
                arguments("emoji stays", "\uD83D\uDE00", "\"\uD83D\uDE00\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void quote(String name, String input, String expected) {
        assertThat(GoText.quote(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("caseMapping")
    void upperAndLowerMapOneCodePointAtATime(String input, String upper, String lower) {
        assertThat(GoText.toUpper(input)).isEqualTo(upper);
        assertThat(GoText.toLower(input)).isEqualTo(lower);
    }

    static Stream<Arguments> caseMapping() {
        return Stream.of(
                arguments("Tesla V100", "TESLA V100", "tesla v100"),
                arguments("straße", "STRAßE", "straße"));
    }
}
