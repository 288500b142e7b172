package io.vgpu.hamicore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
        List<Path> files = new ArrayList<>(vectorFiles(sharedDirectory()));
        String extra = System.getProperty("vgpu.conformance.dir", "").trim();
        if (!extra.isEmpty() && !extra.contains("${")) {
            files.addAll(vectorFiles(Path.of(extra).toAbsolutePath()));
        }
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

    /** {@code -Dvgpu.conformance.shared} (the parent pom sets it), else {@code ../shared/conformance} found upward. */
    static Path sharedDirectory() {
        String configured = System.getProperty("vgpu.conformance.shared", "").trim();
        if (!configured.isEmpty() && !configured.contains("${")) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolveSibling("shared").resolve("conformance");
            if (Files.isDirectory(candidate) && Files.exists(p.resolve("mvnw"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find ../shared/conformance; set -Dvgpu.conformance.shared");
    }

    /** Every JSON file of either hamicore schema in {@code dir}. */
    static List<Path> vectorFiles(Path dir) throws IOException {
        assertThat(dir).as("conformance directory").isDirectory();
        List<Path> out = new ArrayList<>();
        try (Stream<Path> listing = Files.list(dir)) {
            for (Path f : listing.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode doc;
                try {
                    doc = MAPPER.readTree(f.toFile());
                } catch (IOException notJson) {
                    continue;
                }
                String schema = doc.path("schema").asText();
                if (LAYOUT_SCHEMA.equals(schema) || MONITOR_SCHEMA.equals(schema)) {
                    out.add(f);
                }
            }
        }
        return out;
    }
}
