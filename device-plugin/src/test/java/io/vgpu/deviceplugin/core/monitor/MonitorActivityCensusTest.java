package io.vgpu.deviceplugin.core.monitor;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorActivityCensusTest {

    static Stream<Arguments> checks() {
        return Stream.of(
                Arguments.of("more important active on the GPU blocks", Map.of("g0", List.of(1, 0)), 1, List.of("g0"),
                        true, true),
                Arguments.of("same priority alone neither blocks nor contends", Map.of("g0", List.of(0, 1)), 1,
                        List.of("g0"), false, false),
                Arguments.of("two of the same priority contend without blocking", Map.of("g0", List.of(0, 2)), 1,
                        List.of("g0"), false, true),
                Arguments.of("less important activity is ignored", Map.of("g0", List.of(0, 0, 3)), 1, List.of("g0"),
                        false, false),
                Arguments.of("priority beyond the counted range reads zeros but sees lower ones",
                        Map.of("g0", List.of(0, 1)), 5, List.of("g0"), true, true),
                Arguments.of("priority beyond the counted range with nothing active", Map.of("g0", List.of(0, 0)), 5,
                        List.of("g0"), false, false),
                Arguments.of("negative priority is never blocked nor contended", Map.of("g0", List.of(4, 4)), -1,
                        List.of("g0"), false, false),
                Arguments.of("priority 0 is never blocked", Map.of("g0", List.of(3)), 0, List.of("g0"), false, true),
                Arguments.of("keys missing from the census are skipped, a later one decides",
                        Map.of("g1", List.of(1, 0)), 1, List.of("g0", "g1", "g2"), true, true),
                Arguments.of("no key in the census", Map.of("g9", List.of(1, 0)), 1, List.of("g0", "g1"), false, false),
                Arguments.of("empty census", Map.of(), 1, List.of("g0"), false, false),
                Arguments.of("every key is inspected, not only the first",
                        Map.of("g0", List.of(0, 0), "g1", List.of(0, 0), "g2", List.of(1, 0)), 1,
                        List.of("g0", "g1", "g2"), true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("checks")
    void checkBlockingAndCheckPriority(String name, Map<String, List<Integer>> counts, int priority, List<String> keys,
                                       boolean blocks, boolean contends) {
        ActivityCensus census = ActivityCensus.of(counts);

        assertThat(census.blocks(priority, keys)).as("CheckBlocking").isEqualTo(blocks);
        assertThat(census.contends(priority, keys)).as("CheckPriority").isEqualTo(contends);
    }

    @Test
    void builderGrowsPerPriorityCounts() {
        ActivityCensus.Builder b = ActivityCensus.builder();
        b.countActive("g0", 3);
        b.countActive("g0", 0);
        b.countActive("g0", 3);

        ActivityCensus census = b.build();

        assertThat(census.asMap()).isEqualTo(Map.of("g0", List.of(1, 0, 0, 2)));
        assertThat(census.count("g0", 9)).isZero();
        assertThat(census.count("missing", 0)).isZero();
    }
}
