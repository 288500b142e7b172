package io.vgpu.gateway.core.health;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NvidiaHealthTest {

    private static final String REG = "[{\"id\":\"GPU-0\",\"count\":10}]";
    private static final String REG2 = "[{\"id\":\"GPU-0\",\"count\":10,\"health\":true}]";
    private static final HealthVerdict PENDING = new HealthVerdict(true, false);
    private static final HealthVerdict EXPIRED = new HealthVerdict(false, false);
    private static final HealthVerdict STAMPED = new HealthVerdict(true, true);

    private static NodeHealthMemory seen(long count, String annotation) {
        return new NodeHealthMemory(count, annotation);
    }

    static Stream<Arguments> wraps() {
        return Stream.of(
                arguments(Named.of("never had GPUs, stamp pending", PENDING), 0, null, NodeHealthMemory.FRESH,
                        PENDING, NodeHealthMemory.FRESH),
                arguments(Named.of("never had GPUs, stamp expired", EXPIRED), 0, REG, NodeHealthMemory.FRESH,
                        EXPIRED, NodeHealthMemory.FRESH),
                arguments(Named.of("GPUs disappeared", PENDING), 0, REG, seen(4, REG),
                        new HealthVerdict(false, false), seen(0, REG)),
                arguments(Named.of("GPUs disappeared while stamping", STAMPED), 0, null, seen(4, REG),
                        new HealthVerdict(false, true), seen(0, "")),
                arguments(Named.of("first sighting", EXPIRED), 4, REG, NodeHealthMemory.FRESH,
                        new HealthVerdict(true, true), seen(4, REG)),
                arguments(Named.of("count changed", PENDING), 8, REG, seen(4, REG),
                        new HealthVerdict(true, true), seen(8, REG)),
                arguments(Named.of("register annotation changed", EXPIRED), 4, REG2, seen(4, REG),
                        new HealthVerdict(false, true), seen(4, REG2)),
                arguments(Named.of("register annotation deleted", PENDING), 4, null, seen(4, REG),
                        new HealthVerdict(true, true), seen(4, "")),
                arguments(Named.of("stable", PENDING), 4, REG, seen(4, REG), PENDING, seen(4, REG)),
                arguments(Named.of("stable, generic asks for an update", STAMPED), 4, REG, seen(4, REG), STAMPED, seen(4, REG)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void wraps(HealthVerdict generic, long allocatable, String annotation, NodeHealthMemory before,
               HealthVerdict verdict, NodeHealthMemory after) {
        NvidiaHealth.Result result = NvidiaHealth.check(generic, allocatable, annotation, before);

        assertThat(result.verdict()).isEqualTo(verdict);
        assertThat(result.memory()).isEqualTo(after);
    }

    @Test
    void aNullAnnotationIsRememberedAsEmpty() {
        assertThat(new NodeHealthMemory(1, null).registerAnnotation()).isEmpty();
    }

    @Test
    void aNodeSettlesAfterItsFirstRefresh() {
        NvidiaHealth.Result first = NvidiaHealth.check(STAMPED, 4, REG, NodeHealthMemory.FRESH);
        NvidiaHealth.Result second = NvidiaHealth.check(PENDING, 4, REG, first.memory());

        assertThat(first.verdict()).isEqualTo(new HealthVerdict(true, true));
        assertThat(second.verdict()).isEqualTo(PENDING);
    }
}
