package io.vgpu.gateway;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests wait on events, not on the clock (issue 11 item 9): no gateway or simulator test blocks its thread on a
 * future or sleeps. A test composes its steps with {@code TestFlow} on a {@code VertxTestContext}, or, where it is
 * no Vert.x test, polls a condition with a bound ({@code io.vgpu.testsupport.Eventually}, in another module).
 *
 * <p>What counts: {@code toCompletableFuture().get(}/{@code join(}, {@code .get(n, TimeUnit…)}, {@code .join()},
 * {@code .await()} without a bound, a local {@code await(} helper and {@code Thread.sleep}. Not counted: a
 * non-blocking read of a stage already complete ({@code getNow}), and a latch's bounded {@code await(n, unit)}, an
 * event wait (often in a stand-in that holds a call to play a slow dependency). The scan is textual: a comment naming
 * a pattern counts too.
 */
class NoBlockingWaitsInTestsTest {

    /** Relative to the gateway module, where Maven runs its tests. */
    private static final List<Path> ROOTS = List.of(Path.of("src", "test", "java"),
            Path.of("simulate", "src", "test", "java"));

    private static final Pattern BLOCKING = Pattern.compile(
            "toCompletableFuture\\(\\)\\.(get|join)\\("
                    + "|\\.get\\(\\s*[0-9A-Za-z_.]+\\s*,\\s*(java\\.util\\.concurrent\\.)?TimeUnit"
                    + "|\\.join\\(\\)"
                    + "|\\.await\\(\\)"
                    + "|[^a-zA-Z.]await\\("
                    + "|Thread\\.sleep");

    private static final Path SELF = Path.of("src", "test", "java", "io", "vgpu", "gateway",
            "NoBlockingWaitsInTestsTest.java");

    @Test
    void noTestBlocksOnAFutureOrSleeps() {
        List<Path> sources = ROOTS.stream().flatMap(NoBlockingWaitsInTestsTest::javaFiles).toList();
        assertThat(sources).as("the scan found the test sources").hasSizeGreaterThan(100);

        List<String> found = new ArrayList<>();
        for (Path source : sources) {
            String name = slashed(source);
            if (source.equals(SELF)) {
                continue;
            }
            List<String> lines = read(source);
            for (int i = 0; i < lines.size(); i++) {
                if (BLOCKING.matcher(lines.get(i)).find()) {
                    found.add(name + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found).as("blocking waits in tests (use TestFlow on a VertxTestContext, or Eventually)").isEmpty();
    }

    private static Stream<Path> javaFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path source) {
        try {
            return Files.readAllLines(source, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String slashed(Path path) {
        return path.toString().replace('\\', '/');
    }
}
