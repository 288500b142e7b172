package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class GoTimeTest {

    private static final Instant T = Instant.parse("2026-08-01T06:00:00.789Z");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "UTC, 2026-08-01T06:00:00Z",
            "Z, 2026-08-01T06:00:00Z",
            "Asia/Shanghai, 2026-08-01T14:00:00+08:00",
            "America/New_York, 2026-08-01T02:00:00-04:00",
            "Asia/Kolkata, 2026-08-01T11:30:00+05:30"})
    void formatsRfc3339WithoutFractionAndWithZForUtc(String zone, String expected) {
        assertThat(GoTime.formatRfc3339(T, ZoneId.of(zone))).isEqualTo(expected);
    }

    @Test
    void formatsDateTimeInTheGivenZone() {
        assertThat(GoTime.formatDateTime(T, ZoneId.of("Asia/Shanghai"))).isEqualTo("2026-08-01 14:00:00");
        assertThat(GoTime.formatDateTime(Instant.parse("0999-01-02T03:04:05Z"), ZoneOffset.UTC)).isEqualTo("0999-01-02 03:04:05");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "2026-08-01T06:00:00Z|2026-08-01T06:00:00Z",
            "2026-07-03T15:35:10+08:00|2026-07-03T07:35:10Z",
            "2026-07-03T01:35:10-05:30|2026-07-03T07:05:10Z",
            "2026-08-01T06:00:00.5Z|2026-08-01T06:00:00.500Z",
            "2026-08-01T6:00:00Z|2026-08-01T06:00:00Z",
            "2024-02-29T00:00:00Z|2024-02-29T00:00:00Z"})
    void parsesRfc3339(String text, String instant) {
        assertThat(GoTime.parseRfc3339(text).value()).isEqualTo(Instant.parse(instant));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "lock|parsing time \"lock\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"lock\" as \"2006\"",
            "|parsing time \"\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"2006\"",
            "2026-08-01|parsing time \"2026-08-01\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"T\"",
            "2026-08-01T06:00:00|parsing time \"2026-08-01T06:00:00\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"Z07:00\"",
            "2026-8-01T06:00:00Z|parsing time \"2026-8-01T06:00:00Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"8-01T06:00:00Z\" as \"01\"",
            "2026-13-01T06:00:00Z|parsing time \"2026-13-01T06:00:00Z\": month out of range",
            "2026-02-30T06:00:00Z|parsing time \"2026-02-30T06:00:00Z\": day out of range",
            "2026-08-01T24:00:00Z|parsing time \"2026-08-01T24:00:00Z\": hour out of range",
            "2026-08-01T06:60:00Z|parsing time \"2026-08-01T06:60:00Z\": minute out of range",
            "2026-08-01T06:00:00Zjunk|parsing time \"2026-08-01T06:00:00Zjunk\": extra text: \"junk\"",
            "2026-08-01T06:00:00+0800|parsing time \"2026-08-01T06:00:00+0800\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"+0800\" as \"Z07:00\""})
    void rejectsBadRfc3339WithGosMessages(String text, String error) {
        Decoded<Instant> parsed = GoTime.parseRfc3339(text == null ? "" : text);

        assertThat(parsed.isOk()).isFalse();
        assertThat(parsed.error()).isEqualTo(error);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "2026-08-01 14:00:00|2026-08-01T06:00:00Z",
            "2026-08-01 4:00:00|2026-07-31T20:00:00Z",
            "2026-08-01   14:00:00|2026-08-01T06:00:00Z",
            "2026-08-01 14:00:00.25|2026-08-01T06:00:00.250Z"})
    void parsesDateTimeInTheGivenZoneLikeGosLenientParser(String text, String instant) {
        assertThat(GoTime.parseDateTime(text, ZoneId.of("Asia/Shanghai")).value()).isEqualTo(Instant.parse(instant));
    }

    @Test
    void rejectsDateTimeWithTheWrongSeparator() {
        assertThat(GoTime.parseDateTime("2026-08-01T14:00:00", ZoneOffset.UTC).error())
                .isEqualTo("parsing time \"2026-08-01T14:00:00\" as \"2006-01-02 15:04:05\": cannot parse \"T14:00:00\" as \" \"");
    }

    @Test
    void quotesNonAsciiAsUtf8Bytes() {
        assertThat(GoTime.quote("é\"")).isEqualTo("\"\\xc3\\xa9\\\"\"");
    }
}
