package io.vgpu.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where the conformance vectors are and which files a suite runs: the shared vectors beside the
 * repository root ({@code ../shared/conformance}, passed by the parent pom as
 * {@code -Dvgpu.conformance.shared}) and, with {@code -Dvgpu.conformance.dir=<dir>}, every file of the
 * suite's schemas in another directory. Used by every conformance suite, so they agree on the rules.
 */
public final class ConformanceFiles {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ConformanceFiles() {
    }

    /** The shared vectors: {@code -Dvgpu.conformance.shared}, else found upward from the working directory. */
    public static Path sharedDirectory() {
        String configured = System.getProperty("vgpu.conformance.shared", "").trim();
        if (!configured.isEmpty() && !configured.contains("${")) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        // run from an IDE: walk up to the repository root and take its sibling
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolveSibling("shared").resolve("conformance");
            if (Files.isDirectory(candidate) && Files.exists(p.resolve("mvnw"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find ../shared/conformance; set -Dvgpu.conformance.shared");
    }

    /** {@code -Dvgpu.conformance.dir}, when given. */
    public static Optional<Path> extraDirectory() {
        String extra = System.getProperty("vgpu.conformance.dir", "").trim();
        return extra.isEmpty() || extra.contains("${") ? Optional.empty() : Optional.of(Path.of(extra).toAbsolutePath());
    }

    /**
     * The JSON files in {@code dir} whose {@code schema} is one of {@code schemas}, sorted by name;
     * other files (other schemas, not JSON) are ignored.
     *
     * @throws AssertionError when {@code dir} is not a directory or holds no such file: a suite pointed at
     *                        the wrong place must fail, not pass with nothing run
     */
    public static List<Path> requireFiles(Path dir, Set<String> schemas, String origin) {
        if (!Files.isDirectory(dir)) {
            throw new AssertionError(origin + ": " + dir + " is not a directory");
        }
        List<Path> out = new ArrayList<>();
        try (Stream<Path> listing = Files.list(dir)) {
            for (Path f : listing.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                if (schemas.contains(schemaOf(f))) {
                    out.add(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty()) {
            throw new AssertionError(origin + ": no file of schema " + schemas + " in " + dir);
        }
        return out;
    }

    /** The suite's files: the shared ones, plus those of {@code -Dvgpu.conformance.dir} when given. */
    public static List<Path> suiteFiles(Set<String> schemas) {
        List<Path> files = new ArrayList<>(requireFiles(sharedDirectory(), schemas, "the shared vectors"));
        extraDirectory().ifPresent(dir -> files.addAll(requireFiles(dir, schemas, "-Dvgpu.conformance.dir")));
        return files;
    }

    private static String schemaOf(Path file) {
        try {
            JsonNode doc = MAPPER.readTree(file.toFile());
            return doc.path("schema").asText();
        } catch (IOException notJson) {
            return "";
        }
    }
}
