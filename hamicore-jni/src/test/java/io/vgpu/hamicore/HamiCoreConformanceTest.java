package io.vgpu.hamicore;

import io.vgpu.testsupport.ConformanceFiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs ALL of {@code hamicore-layout.json} and every {@code loader}, {@code accessor} and
 * {@code accessor_write} vector of every {@code hamicore-monitor-vectors/1} file in
 * {@code ../shared/conformance} (and in {@code -Dvgpu.conformance.dir}, when set), and prints
 * {@code hamicore conformance: N passed, M failed} followed by the failures. Other vector kinds
 * (metrics, feedback) belong to the monitor module and are not counted here.
 */
class HamiCoreConformanceTest {

    static final String LAYOUT_SCHEMA = "hamicore-layout/1";
    static final String MONITOR_SCHEMA = "hamicore-monitor-vectors/1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path scratch;

    private int passed;
    private final List<String> failures = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    @Test
    void everyHamiCoreVectorPasses() throws IOException {
        List<Path> files = ConformanceFiles.suiteFiles(Set.of(LAYOUT_SCHEMA, MONITOR_SCHEMA));
        boolean sawLayout = false;
        for (Path file : files) {
            JsonNode doc = MAPPER.readTree(file.toFile());
            String name = file.getFileName().toString();
            if (LAYOUT_SCHEMA.equals(doc.path("schema").asText())) {
                sawLayout = true;
                new LayoutVectors(Files.createTempDirectory(scratch, "layout")).addCases(doc, name, new LayoutVectors.Cases() {
                    @Override
                    public void add(String id, LayoutVectors.Check check) {
                        run(id, check);
                    }

                    @Override
                    public void skip(String id, String reason) {
                        skipped.add(id + " (" + reason + ")");
                    }
                });
            } else {
                MonitorVectors monitor = new MonitorVectors(Files.createTempDirectory(scratch, "monitor"));
                for (JsonNode vector : doc.path("vectors")) {
                    if (MonitorVectors.KINDS.contains(vector.path("kind").asText())) {
                        run(name + "#" + vector.path("id").asText("?"), () -> monitor.check(vector));
                    }
                }
            }
        }

        System.out.println("hamicore conformance: " + passed + " passed, " + failures.size() + " failed");
        failures.forEach(f -> System.out.println("  FAILED " + f));
        skipped.forEach(s -> System.out.println("  skipped " + s));
        assertThat(sawLayout).as("a " + LAYOUT_SCHEMA + " file was found").isTrue();
        assertThat(passed + failures.size()).as("cases run").isPositive();
        assertThat(failures).as("failed hamicore conformance cases").isEmpty();
    }

    private void run(String id, LayoutVectors.Check check) {
        List<String> problems;
        try {
            problems = check.run();
        } catch (Exception | AssertionError e) {
            problems = List.of("threw " + e);
        }
        if (problems.isEmpty()) {
            passed++;
        } else {
            failures.add(id + " " + problems);
        }
    }
}
