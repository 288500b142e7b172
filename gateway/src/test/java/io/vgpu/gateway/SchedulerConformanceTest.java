package io.vgpu.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.conformance.VectorFamily;
import io.vgpu.gateway.conformance.VectorJson;
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
 * Runs EVERY case of every {@code hami-conformance/v1} file in {@code ../shared/conformance} (and,
 * with {@code -Dvgpu.conformance.dir=<dir>}, of every such file in that directory too) against the
 * implementation, and prints {@code conformance: N passed, M failed} followed by the failures.
 *
 * <p>No case is skipped: a file kind without a {@link VectorFamily} fails all its cases, and a case
 * that throws is a failure.
 */
class SchedulerConformanceTest {

    static final String SCHEMA = "hami-conformance/v1";

    @Test
    void everyConformanceVectorPasses() throws IOException {
        List<Path> files = ConformanceFiles.suiteFiles(Set.of(SCHEMA));

        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (Path file : files) {
            JsonNode doc = VectorJson.MAPPER.readTree(file.toFile());
            JsonNode defaults = doc.path("defaults").isObject() ? doc.get("defaults") : VectorJson.MAPPER.createObjectNode();
            String kind = doc.path("kind").asText();
            VectorFamily family = familyFor(kind);
            for (JsonNode testCase : doc.path("cases")) {
                String id = file.getFileName() + "#" + testCase.path("id").asText("?");
                List<String> problems = run(family, kind, defaults, testCase);
                if (problems.isEmpty()) {
                    passed++;
                } else {
                    failures.add(id + " " + problems);
                }
            }
        }

        System.out.println("conformance: " + passed + " passed, " + failures.size() + " failed");
        failures.forEach(f -> System.out.println("  FAILED " + f));
        assertThat(passed + failures.size()).as("cases run").isPositive();
        assertThat(failures).as("failed conformance cases").isEmpty();
    }

    private static List<String> run(VectorFamily family, String kind, JsonNode defaults, JsonNode testCase) {
        if (family == null) {
            return List.of("no VectorFamily for kind '" + kind + "'");
        }
        try {
            return family.check(defaults, testCase);
        } catch (Exception | AssertionError e) {
            return List.of("threw " + e);
        }
    }

    /** {@code nvidia_fit} → {@code io.vgpu.gateway.conformance.NvidiaFitVectors}; null when absent. */
    static VectorFamily familyFor(String kind) {
        StringBuilder name = new StringBuilder("io.vgpu.gateway.conformance.");
        for (String part : kind.split("_")) {
            if (!part.isEmpty()) {
                name.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
            }
        }
        name.append("Vectors");
        try {
            return (VectorFamily) Class.forName(name.toString()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
