package io.vgpu.gateway.core.score;

import io.vgpu.state.model.DeviceUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.vgpu.gateway.core.fit.DeviceFixtures.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The Go {@code sort.Sort} port against orders produced by real Go ({@code gosort-golden.txt}: Go 1.19.8's
 * standard library, and the same sources with Go 1.24's xorshift shifts).
 */
class GoSortTest {

    /** Sorts positions by int keys only, like the Go generator's {@code Less}. */
    private static int[] sortedPositions(int[] keys, GoSort.Xorshift xorshift) {
        int[] k = keys.clone();
        int[] ids = IntStream.range(0, k.length).toArray();
        GoSort.sort(new GoSort.Data() {
            @Override
            public boolean less(int i, int j) {
                return k[i] < k[j];
            }

            @Override
            public void swap(int i, int j) {
                int t = k[i];
                k[i] = k[j];
                k[j] = t;
                t = ids[i];
                ids[i] = ids[j];
                ids[j] = t;
            }
        }, k.length, xorshift);
        return ids;
    }

    static Stream<Arguments> golden() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                GoSortTest.class.getResourceAsStream("gosort-golden.txt"), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\\|");
                int[] keys = ints(parts[1]);
                GoSort.Xorshift variant = parts[0].equals("go119") ? GoSort.Xorshift.GO_1_19 : GoSort.Xorshift.GO_1_24;
                cases.add(arguments(parts[0] + " n=" + keys.length + " #" + cases.size(), variant, keys, ints(parts[2])));
            }
        }
        return cases.stream();
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void golden(String name, GoSort.Xorshift variant, int[] keys, int[] expected) {
        assertThat(sortedPositions(keys, variant)).containsExactly(expected);
    }

    @Test
    void goldenSetExercisesUnstablePlacementAndBothXorshiftVariants() throws IOException {
        int unstable = 0;
        int variantSensitive = 0;
        for (Arguments a : golden().toList()) {
            int[] keys = (int[]) a.get()[2];
            int[] stable = IntStream.range(0, keys.length).boxed()
                    .sorted((x, y) -> Integer.compare(keys[x], keys[y])).mapToInt(Integer::intValue).toArray();
            if (!Arrays.equals(stable, (int[]) a.get()[3])) {
                unstable++;
            }
            if (!Arrays.equals(sortedPositions(keys, GoSort.Xorshift.GO_1_19),
                    sortedPositions(keys, GoSort.Xorshift.GO_1_24))) {
                variantSensitive++;
            }
        }
        assertThat(unstable).as("cases where pdqsort reorders equal keys").isGreaterThan(10);
        assertThat(variantSensitive).as("inputs that reach breakPatterns").isGreaterThan(0);
    }

    @Test
    void upToTwelveElementsIsAStableInsertionSort() {
        int[] keys = {3, 1, 3, 1, 2, 2, 3, 1, 2, 1, 3, 2};
        int[] stable = IntStream.range(0, keys.length).boxed()
                .sorted((x, y) -> Integer.compare(keys[x], keys[y])).mapToInt(Integer::intValue).toArray();
        assertThat(sortedPositions(keys, GoSort.Xorshift.GO_1_24)).containsExactly(stable);
    }

    @Test
    void moreThanTwelveElementsIsNotStable() {
        int[] keys = {3, 1, 3, 1, 2, 2, 3, 1, 2, 1, 3, 2, 0};
        int[] stable = IntStream.range(0, keys.length).boxed()
                .sorted((x, y) -> Integer.compare(keys[x], keys[y])).mapToInt(Integer::intValue).toArray();
        int[] actual = sortedPositions(keys, GoSort.Xorshift.GO_1_24);
        assertThat(actual).isNotEqualTo(stable);
        assertThat(Arrays.stream(actual).map(i -> keys[i]).toArray()).isSorted();
    }

    @Test
    void deviceOrderUsesTheGoSortOnLargeNodes() throws IOException {
        Arguments golden = golden().filter(a -> a.get()[1] == GoSort.Xorshift.GO_1_24
                && ((int[]) a.get()[2]).length == 17).findFirst().orElseThrow();
        int[] keys = (int[]) golden.get()[2];
        DeviceUsage[] devices = new DeviceUsage[keys.length];
        float[] scores = new float[keys.length];
        for (int i = 0; i < keys.length; i++) {
            devices[i] = gpu("GPU-" + i).index(i).build();
            scores[i] = keys[i];
        }
        new DeviceOrder("binpack", false).sort(devices, scores, devices.length);
        assertThat(Arrays.stream(devices).mapToInt(DeviceUsage::index).toArray())
                .containsExactly((int[]) golden.get()[3]);
    }
}
