package io.vgpu.state.codec;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class GoStrconvTest {

    static Stream<Arguments> parseInt32() {
        return Stream.of(
                arguments(Named.of("plain", "7680"), "7680"),
                arguments(Named.of("plus sign", "+5"), "5"),
                arguments(Named.of("minus sign", "-5"), "-5"),
                arguments(Named.of("leading zeros", "007"), "7"),
                arguments(Named.of("int32 max", "2147483647"), "2147483647"),
                arguments(Named.of("int32 min", "-2147483648"), "-2147483648"),
                arguments(Named.of("empty", ""), "strconv.ParseInt: parsing \"\": invalid syntax"),
                arguments(Named.of("sign only", "-"), "strconv.ParseInt: parsing \"-\": invalid syntax"),
                arguments(Named.of("letters", "notanint"), "strconv.ParseInt: parsing \"notanint\": invalid syntax"),
                arguments(Named.of("space", " 1"), "strconv.ParseInt: parsing \" 1\": invalid syntax"),
                arguments(Named.of("decimal point", "1.5"), "strconv.ParseInt: parsing \"1.5\": invalid syntax"),
                arguments(Named.of("underscore", "1_000"), "strconv.ParseInt: parsing \"1_000\": invalid syntax"),
                arguments(Named.of("int32 max + 1", "2147483648"), "strconv.ParseInt: parsing \"2147483648\": value out of range"),
                arguments(Named.of("int32 min - 1", "-2147483649"), "strconv.ParseInt: parsing \"-2147483649\": value out of range"),
                arguments(Named.of("overflow before a bad character", "99999999999999999999x"),
                        "strconv.ParseInt: parsing \"99999999999999999999x\": value out of range"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void parseInt32(String input, String valueOrError) {
        Decoded<Long> parsed = GoStrconv.parseInt(input, 32);

        assertThat(parsed.isOk() ? Long.toString(parsed.value()) : parsed.error()).isEqualTo(valueOrError);
    }

    @ParameterizedTest(name = "Atoi({0}) -> {1}")
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "-1|-1",
            "9223372036854775807|9223372036854775807",
            "9223372036854775808|strconv.Atoi: parsing \"9223372036854775808\": value out of range",
            "x|strconv.Atoi: parsing \"x\": invalid syntax"})
    void atoiUsesTheAtoiNameAnd64Bits(String input, String valueOrError) {
        Decoded<Long> parsed = GoStrconv.atoi(input);

        assertThat(parsed.isOk() ? Long.toString(parsed.value()) : parsed.error()).isEqualTo(valueOrError);
    }

    @ParameterizedTest(name = "ParseBool({0}) -> {1}")
    @CsvSource(delimiter = '|', value = {
            "1|true", "t|true", "T|true", "TRUE|true", "true|true", "True|true",
            "0|false", "f|false", "F|false", "FALSE|false", "false|false", "False|false",
            "tRUE|strconv.ParseBool: parsing \"tRUE\": invalid syntax",
            "yes|strconv.ParseBool: parsing \"yes\": invalid syntax"})
    void parseBoolAcceptsExactlyGosSpellings(String input, String valueOrError) {
        Decoded<Boolean> parsed = GoStrconv.parseBool(input);

        assertThat(parsed.isOk() ? parsed.value().toString() : parsed.error()).isEqualTo(valueOrError);
    }

    static Stream<Arguments> quote() {
        return Stream.of(
                arguments(Named.of("plain", "garbage"), "\"garbage\""),
                arguments(Named.of("quote and backslash", "a\"b\\c"), "\"a\\\"b\\\\c\""),
                arguments(Named.of("control characters", "\n\t\u0001"), "\"\\n\\t\\x01\""),
                arguments(Named.of("printable unicode kept", "Grüße"), "\"Grüße\""),
                arguments(Named.of("non-printable unicode escaped", "\u200b"), "\"\\u200b\""),
                arguments(Named.of("lone surrogate", "\ud800"), "\"\\ufffd\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void quote(String input, String quoted) {
        assertThat(GoStrconv.quote(input)).isEqualTo(quoted);
    }
}
