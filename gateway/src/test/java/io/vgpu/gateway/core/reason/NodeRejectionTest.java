package io.vgpu.gateway.core.reason;

import io.vgpu.state.model.FitReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The typed node rejections: HAMi's text made once, and the labels metrics count. */
class NodeRejectionTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                arguments("one reason", devices(4, FitReason.CardTypeMismatch, 4), "4/4 CardTypeMismatch"),
                // sorted as strings, not by enum order: "2/8 CardInsufficientCore" before "3/8 CardInsufficientMemory"
                arguments("several, sorted as strings", devices(8, FitReason.CardNotHealth, 3,
                        FitReason.CardInsufficientMemory, 3, FitReason.CardInsufficientCore, 2),
                        "2/8 CardInsufficientCore, 3/8 CardInsufficientMemory, 3/8 CardNotHealth"),
                // "10/12 ..." sorts before "2/12 ...": Go's sort.Strings compares the digits as text
                arguments("two-digit counts sort as text", devices(12, FitReason.CardUuidMismatch, 10,
                        FitReason.CardCordoned, 2), "10/12 CardUuidMismatch, 2/12 CardCordoned"),
                arguments("a reason counted zero times is still reported", devices(2, FitReason.NumaNotFit, 0,
                        FitReason.CardInsufficientMemory, 2), "0/2 NumaNotFit, 2/2 CardInsufficientMemory"),
                arguments("a node-level reason is its fixed text", NodeReason.NODE_UNREGISTERED, "node unregistered"),
                arguments("quota", NodeReason.QUOTA_EXCEEDED, "ResourceQuotaNotFit"),
                arguments("an inconsistency is its message", new NodeRejection.Inconsistent("Device with UUID \"a\" not"
                        + " found on node n after Fit"), "Device with UUID \"a\" not found on node n after Fit"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void texts(String name, NodeRejection rejection, String expected) {
        assertThat(rejection.hamiText()).isEqualTo(expected);
    }

    @Test
    void aDeviceRejectionIsCountedUnderEachOfItsReasons() {
        NodeRejection both = devices(2, FitReason.CardInsufficientMemory, 1, FitReason.CardInsufficientCore, 1);

        assertThat(both.labels()).containsExactly("CardInsufficientMemory", "CardInsufficientCore");
    }

    @Test
    void aFixedTextStandsForItselfAndAnythingVariableIsOther() {
        assertThat(NodeReason.NODE_UNREGISTERED.labels()).containsExactly("node unregistered");
        assertThat(NodeReason.RESERVATION_CONFLICT.labels())
                .containsExactly("reservation conflict: capacity taken meanwhile");
        assertThat(new NodeRejection.Inconsistent("AddResourceUsage failed for device GPU-1: MIG profile and placement"
                + " allocation failed").labels()).containsExactly(NodeRejection.OTHER);
        assertThat(new DeviceRejection(Map.of(), 3).labels()).as("nothing counted: an empty text")
                .containsExactly(NodeRejection.OTHER);
    }

    @Test
    void theCountsAreCopied() {
        Map<FitReason, Integer> counts = new EnumMap<>(FitReason.class);
        counts.put(FitReason.CardCordoned, 1);
        DeviceRejection rejection = new DeviceRejection(counts, 1);
        counts.put(FitReason.CardNotHealth, 1);

        assertThat(rejection.reasons()).containsExactly(FitReason.CardCordoned);
    }

    private static DeviceRejection devices(int devices, Object... reasonsAndCounts) {
        Map<FitReason, Integer> counts = new EnumMap<>(FitReason.class);
        for (int i = 0; i < reasonsAndCounts.length; i += 2) {
            counts.put((FitReason) reasonsAndCounts[i], (Integer) reasonsAndCounts[i + 1]);
        }
        return new DeviceRejection(counts, devices);
    }
}
