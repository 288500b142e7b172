package io.vgpu.gateway;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduling layer stays readable (issue 11's acceptance): no file in {@code gateway.scheduling} is over 300
 * lines. A service that grows past it has a piece that wants a name of its own (as {@code BindSteps},
 * {@code EarlierReservation} and {@code LockAcquisition} got).
 */
class SchedulingFilesAreSmallTest {

    private static final int MAX_LINES = 300;

    /** Relative to the gateway module, where Maven runs its tests. */
    private static final Path SCHEDULING = Path.of("src", "main", "java", "io", "vgpu", "gateway", "scheduling");

    @Test
    void noSchedulingFileIsOverThreeHundredLines() throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(SCHEDULING)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(sources).as("the scheduling sources").hasSizeGreaterThan(10);
        List<String> over = sources.stream()
                .filter(p -> lines(p) > MAX_LINES)
                .map(p -> p.getFileName() + " " + lines(p))
                .toList();
        assertThat(over).as("scheduling files over " + MAX_LINES + " lines (file lines)").isEmpty();
    }

    private static long lines(Path source) {
        try (Stream<String> all = Files.lines(source)) {
            return all.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
