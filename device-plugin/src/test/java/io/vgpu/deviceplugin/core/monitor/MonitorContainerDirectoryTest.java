package io.vgpu.deviceplugin.core.monitor;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.vgpu.deviceplugin.core.monitor.ContainerDirectory.Retention;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorContainerDirectoryTest {

    static Stream<Arguments> names() {
        return Stream.of(
                Arguments.of("uid and container", "uid4_mycontainer", Optional.of(new ContainerDirectory("uid4", "mycontainer"))),
                Arguments.of("a real pod UID", "0b6f4a8e-4c1d-4f0a-9a0e-000000000001_worker",
                        Optional.of(new ContainerDirectory("0b6f4a8e-4c1d-4f0a-9a0e-000000000001", "worker"))),
                Arguments.of("split at the first underscore", "a_b_c", Optional.of(new ContainerDirectory("a", "b_c"))),
                Arguments.of("no underscore", "uid4", Optional.empty()),
                Arguments.of("trailing underscore", "uid4_", Optional.empty()),
                Arguments.of("leading underscore", "_ctr", Optional.empty()),
                Arguments.of("only an underscore", "_", Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void parsesDirectoryNames(String name, String directory, Optional<ContainerDirectory> expected) {
        assertThat(ContainerDirectory.parse(directory)).isEqualTo(expected);
        expected.ifPresent(d -> assertThat(d.directoryName()).isEqualTo(directory));
    }

    static Stream<Arguments> retention() {
        Instant now = Instant.parse("2026-01-01T00:10:00Z");
        Duration resync = Duration.ofMinutes(5);
        return Stream.of(
                Arguments.of("pod on this node", true, now.minus(Duration.ofDays(3)), now, resync, Retention.TRACK),
                Arguments.of("unknown pod, fresh directory", false, now.minusSeconds(10), now, resync, Retention.GRACE),
                Arguments.of("unknown pod, one second inside the grace period", false,
                        now.minus(resync).plusSeconds(1), now, resync, Retention.GRACE),
                Arguments.of("unknown pod, exactly at the end of the grace period", false, now.minus(resync), now,
                        resync, Retention.REMOVE),
                Arguments.of("unknown pod, twice the resync interval old", false, now.minus(resync.multipliedBy(2)), now,
                        resync, Retention.REMOVE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("retention")
    void retentionFollowsHamiGracePeriod(String name, boolean podOnNode, Instant modified, Instant now,
                                         Duration resync, Retention expected) {
        assertThat(ContainerDirectory.retention(podOnNode, modified, now, resync)).isEqualTo(expected);
    }
}
