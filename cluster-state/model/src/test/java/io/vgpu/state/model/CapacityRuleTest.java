package io.vgpu.state.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.vgpu.state.model.DeviceFixtures.card;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class CapacityRuleTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                arguments("idle card takes a slice", card("g").build(), 1000, 30, null),
                arguments("exact fit of the remaining memory", card("g").used(1, 7000, 0).build(), 1000, 0, null),
                arguments("one MiB too many", card("g").used(1, 7001, 0).build(), 1000, 0,
                        FitReason.CardInsufficientMemory),
                arguments("slots exhausted wins over memory", card("g").split(2).used(2, 0, 0).build(), 1, 0,
                        FitReason.CardTimeSlicingExhausted),
                arguments("cores short", card("g").used(1, 0, 80).build(), 100, 30, FitReason.CardInsufficientCore),
                arguments("exclusive request on a used card", card("g").used(1, 100, 0).build(), 100, 100,
                        FitReason.ExclusiveDeviceAllocateConflict),
                arguments("exclusive request on an idle card", card("g").build(), 100, 100, null),
                arguments("core-less request on a card whose cores are all taken", card("g").used(1, 0, 100).build(),
                        100, 0, FitReason.CardComputeUnitsExhausted),
                arguments("memory is checked before cores", card("g").used(1, 8000, 100).build(), 1, 1,
                        FitReason.CardInsufficientMemory),
                arguments("huge request does not overflow", card("g").mem(Integer.MAX_VALUE).used(1, 5, 0).build(),
                        Integer.MAX_VALUE, 0, FitReason.CardInsufficientMemory));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void appliesHamisChecksInOrder(String name, DeviceUsage dev, int mem, int cores, FitReason expected) {
        FitReason reason = CapacityRule.slotRejection(dev);
        if (reason == null) {
            reason = CapacityRule.resourceRejection(dev, mem, cores);
        }
        assertThat(reason).isEqualTo(expected);
        assertThat(CapacityRule.admits(dev, mem, cores)).isEqualTo(expected == null);
    }
}
