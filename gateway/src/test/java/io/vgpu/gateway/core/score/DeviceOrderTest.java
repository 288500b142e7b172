package io.vgpu.gateway.core.score;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class DeviceOrderTest {

    /** Keys of one device: score, numa, used, index. */
    record Key(float score, int numa, int used, int index) {
    }

    static Stream<Arguments> less() {
        return Stream.of(
                arguments("chain of unknown tokens falls back to spread", "mutex,topology-aware", false,
                        new Key(20, 0, 0, 0), new Key(10, 0, 0, 0), true),
                arguments("chain: all keys equal, lower index first", "binpack,numa", false,
                        new Key(10, 0, 0, 1), new Key(10, 0, 0, 2), true),
                arguments("chain: tokens are trimmed", " binpack , numa", false,
                        new Key(10, 0, 0, 0), new Key(20, 0, 0, 0), true),
                arguments("chain: numa-bind moves numa first", "binpack,spread", true,
                        new Key(99, 0, 0, 0), new Key(1, 1, 0, 0), true),
                arguments("chain: numa-bind keeps numa where it already leads", "numa,binpack", true,
                        new Key(1, 0, 0, 0), new Key(5, 0, 0, 0), true),
                arguments("chain: duplicates are dropped (spread,binpack,spread = spread,binpack)",
                        "spread,binpack,spread", false, new Key(5, 0, 0, 0), new Key(1, 0, 0, 0), true),
                arguments("single value is not trimmed: ' mutex' is spread", " mutex", false,
                        new Key(1, 0, 5, 0), new Key(9, 0, 0, 0), false),
                arguments("mutex: busy before idle regardless of score", "mutex", false,
                        new Key(0, 0, 3, 0), new Key(99, 0, 1, 0), true),
                arguments("mutex ignores numa-bind", "mutex", true,
                        new Key(0, 1, 3, 0), new Key(0, 0, 1, 0), true),
                arguments("numa-bind binpack: higher NUMA first", "binpack", true,
                        new Key(1, 1, 0, 0), new Key(50, 0, 0, 0), true),
                arguments("numa-bind topology-aware behaves like spread", "topology-aware", true,
                        new Key(50, 0, 0, 0), new Key(1, 0, 0, 0), true),
                arguments("binpack: equal score, lower NUMA first", "binpack", false,
                        new Key(3, 0, 0, 0), new Key(3, 1, 0, 0), true),
                arguments("equal keys are not less (strict order)", "spread", false,
                        new Key(3, 0, 0, 0), new Key(3, 0, 0, 0), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void less(String name, String policy, boolean numaBind, Key a, Key b, boolean expected) {
        DeviceOrder order = new DeviceOrder(policy, numaBind);
        assertThat(order.less(a.score(), a.numa(), a.used(), a.index(), b.score(), b.numa(), b.used(), b.index()))
                .isEqualTo(expected);
    }
}
