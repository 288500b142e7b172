package io.vgpu.state.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class NodeLockCodecTest {

    private static final Instant T = Instant.parse("2026-08-01T06:00:00.900Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "UTC, '2026-08-01T06:00:00Z,ns,pod-a'",
            "Asia/Shanghai, '2026-08-01T14:00:00+08:00,ns,pod-a'"})
    void writesRfc3339InTheLocalZoneThenTheOwner(String zone, String value) {
        assertThat(NodeLockCodec.value(T, ZoneId.of(zone), "ns", "pod-a")).isEqualTo(value);
    }

    @Test
    void parsesTheThreePartForm() {
        NodeLock lock = NodeLockCodec.parse("2026-08-01T14:00:00+08:00,ns,pod-a").value();

        assertThat(lock).isEqualTo(new NodeLock(Instant.parse("2026-08-01T06:00:00Z"), "ns", "pod-a", false));
        assertThat(lock.namesOwner()).isTrue();
        assertThat(lock.ownedBy("ns", "pod-a")).isTrue();
        assertThat(lock.ownedBy("ns", "pod-b")).isFalse();
    }

    @Test
    void parsesTheLegacyBareTime() {
        NodeLock lock = NodeLockCodec.parse("2026-07-03T15:35:10+08:00").value();

        assertThat(lock).isEqualTo(new NodeLock(Instant.parse("2026-07-03T07:35:10Z"), "", "", true));
        assertThat(lock.namesOwner()).isFalse();
    }

    @Test
    void anEmptyOwnerPartNamesNoOwner() {
        assertThat(NodeLockCodec.parse("2026-08-01T06:00:00Z,,").value().namesOwner()).isFalse();
        assertThat(NodeLockCodec.parse("2026-08-01T06:00:00Z,ns,").value().namesOwner()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a,b|malformed lock annotation: expected 3 parts, got 2 from a,b",
            "2026-08-01T06:00:00Z,ns,pod,extra|malformed lock annotation: expected 3 parts, got 4 from 2026-08-01T06:00:00Z,ns,pod,extra",
            ",,,|malformed lock annotation: expected 3 parts, got 4 from ,,,",
            "lock|parsing time \"lock\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"lock\" as \"2006\"",
            "yesterday,ns,pod|parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\"",
            "2026-08-01 06:00:00,ns,pod|parsing time \"2026-08-01 06:00:00\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \" 06:00:00\" as \"T\""})
    void rejectsMalformedValues(String value, String error) {
        assertThat(NodeLockCodec.parse(value).error()).isEqualTo(error);
    }

    @Test
    void rejectsNullAndEmpty() {
        assertThat(NodeLockCodec.parse(null).isOk()).isFalse();
        assertThat(NodeLockCodec.parse("").isOk()).isFalse();
    }

    @Test
    void buildsOwnerTextAndLegacyValues() {
        assertThat(NodeLockCodec.podNamespaceName("test-namespace", "test-pod", "@@@")).isEqualTo("test-namespace@@@test-pod");
        assertThat(NodeLockCodec.ownerSuffix("ns", "pod")).isEqualTo(",ns,pod");
        assertThat(NodeLockCodec.legacyValue(T, ZoneOffset.UTC)).isEqualTo("2026-08-01T06:00:00Z");
    }

    @Test
    void buildsResourceVersionGuardedPatches() {
        assertThat(NodeLockCodec.setPatch("2026-08-01T06:00:00Z,ns,pod", "42")).isEqualTo(
                "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":\"2026-08-01T06:00:00Z,ns,pod\"},\"resourceVersion\":\"42\"}}");
        assertThat(NodeLockCodec.removePatch("43")).isEqualTo(
                "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":null},\"resourceVersion\":\"43\"}}");
    }
}
