package io.vgpu.gateway.core.fit;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.Vendor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class TopologySelectionTest {

    private static List<ContainerDevice> candidates(String... ids) {
        return Arrays.stream(ids).map(id -> new ContainerDevice(0, id, Vendor.NVIDIA, 1, 1)).toList();
    }

    static Stream<Arguments> selections() {
        return Stream.of(
                arguments("single: lowest total towards the others", candidates("a", "b", "c"), 1,
                        Map.of("a", Map.of("b", 5, "c", 5), "b", Map.of("a", 1), "c", Map.of("a", 9)), List.of("b")),
                arguments("single: ties keep the first candidate", candidates("a", "b"), 1, Map.of(), List.of("a")),
                arguments("single: the same uuid twice does not score against itself", candidates("a", "a", "b"), 1,
                        Map.of("a", Map.of("a", -100, "b", 3), "b", Map.of("a", 1)), List.of("b")),
                arguments("pairs use the score of the earlier candidate towards the later one",
                        candidates("a", "b", "c"), 2, Map.of("b", Map.of("a", 100), "a", Map.of("c", 2)),
                        List.of("a", "c")),
                arguments("all zero: the first combination", candidates("a", "b", "c", "d"), 3, Map.of(),
                        List.of("a", "b", "c")),
                arguments("three of five: best sum over all pairs", candidates("a", "b", "c", "d", "e"), 3,
                        Map.of("b", Map.of("d", 10, "e", 10), "d", Map.of("e", 10), "a", Map.of("b", 15)),
                        List.of("b", "d", "e")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void selections(String name, List<ContainerDevice> candidates, int wanted, Map<String, Map<String, Integer>> scores,
                    List<String> chosen) {
        List<ContainerDevice> picked = TopologySelection.choose(candidates, wanted, new PairScores(scores));
        assertThat(picked).extracting(ContainerDevice::uuid).containsExactlyElementsOf(chosen);
    }
}
