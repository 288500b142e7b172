package io.vgpu.deviceplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vgpu.deviceplugin.conformance.NodeVectorFamily;
import io.vgpu.testsupport.ConformanceFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs EVERY vector of the node-side vector files in {@code ../shared/conformance} (schemas
 * {@code hami-node-deviceplugin-vectors/v1} and {@code hamicore-monitor-vectors/1}) and, with
 * {@code -Dvgpu.conformance.dir=<dir>}, of every file of those schemas in that directory, printing
 * {@code conformance: N passed, M failed} and the failures. Files of other schemas are ignored; a
 * missing directory or one without such a file fails.
 */
class NodeConformanceTest {

    static final Set<String> SCHEMAS = Set.of("hami-node-deviceplugin-vectors/v1", "hamicore-monitor-vectors/1");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void everyNodeVectorPasses() throws IOException {
        List<Path> files = ConformanceFiles.suiteFiles(SCHEMAS);
        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (Path file : files) {
            JsonNode doc = MAPPER.readTree(file.toFile());
            for (JsonNode vector : doc.path("vectors")) {
                String kind = vector.path("kind").asText();
                List<String> problems = run(familyFor(kind), kind, doc, vector);
                if (problems.isEmpty()) {
                    passed++;
                } else {
                    failures.add(file.getFileName() + "#" + vector.path("id").asText("?") + " " + problems);
                }
            }
        }
        System.out.println("conformance: " + passed + " passed, " + failures.size() + " failed");
        failures.forEach(f -> System.out.println("  FAILED " + f));
        assertThat(passed + failures.size()).as("vectors run").isPositive();
        assertThat(failures).as("failed node conformance vectors").isEmpty();
    }

    private static List<String> run(NodeVectorFamily family, String kind, JsonNode doc, JsonNode vector) {
        if (family == null) {
            return List.of("no NodeVectorFamily for kind '" + kind + "'");
        }
        try {
            return family.check(doc, vector);
        } catch (Exception | AssertionError e) {
            return List.of("threw " + e);
        }
    }

    static NodeVectorFamily familyFor(String kind) {
        StringBuilder name = new StringBuilder("io.vgpu.deviceplugin.conformance.");
        for (String part : kind.split("_")) {
            if (!part.isEmpty()) {
                name.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
            }
        }
        name.append("Vectors");
        try {
            return (NodeVectorFamily) Class.forName(name.toString()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
