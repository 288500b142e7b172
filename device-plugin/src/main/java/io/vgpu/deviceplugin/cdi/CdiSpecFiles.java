package io.vgpu.deviceplugin.cdi;

import io.vgpu.deviceplugin.host.AtomicFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * CDI spec files in one directory (the dynamic {@code /var/run/cdi} by default): written
 * atomically ({@link AtomicFiles}: a runtime scanning the directory sees the old file or the new
 * one, and never a temporary file, whose name does not end in {@code .json}), read back, removed.
 * Also reads the specs other tools left in a list of directories ({@link #scan}), e.g. the static
 * spec {@code nvidia-ctk cdi generate} writes to {@code /etc/cdi}.
 *
 * <p>Blocking file I/O: call from a worker, never an event loop. Thread-safe as far as the file
 * system is (two writers of one file: the last rename wins, each file whole).
 */
public final class CdiSpecFiles {

    private final Path directory;

    /** @param directory where specs are written (created on the first write) */
    public CdiSpecFiles(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The directory. */
    public Path directory() {
        return directory;
    }

    /** Where {@code fileName} lives. */
    public Path path(String fileName) {
        requireSpecFileName(fileName);
        return directory.resolve(fileName);
    }

    /**
     * Writes {@code spec} as {@code fileName} atomically, replacing an older version; when this
     * returns, the file is complete on disk.
     *
     * @return the file written
     */
    public Path write(String fileName, CdiSpec spec) throws IOException {
        Path target = path(fileName);
        AtomicFiles.write(target, CdiJson.encode(spec).getBytes(StandardCharsets.UTF_8));
        return target;
    }

    /** The spec in {@code fileName}; empty when there is no such file. */
    public Optional<CdiSpec> read(String fileName) throws IOException {
        Path file = path(fileName);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(CdiJson.decode(Files.readString(file), isYaml(fileName)));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not a CDI spec: " + e.getMessage(), e);
        }
    }

    /** Removes {@code fileName} and any temporary file a crash left for it; true when the spec existed. */
    public boolean remove(String fileName) throws IOException {
        boolean existed = Files.deleteIfExists(path(fileName));
        AtomicFiles.removeLeftovers(directory, fileName);
        return existed;
    }

    /**
     * Every {@code *.json} / {@code *.yaml} spec in {@code dirs} (missing directories are skipped),
     * in directory order, then file-name order. A file that cannot be read is returned with its error
     * instead of failing the scan.
     */
    public static List<Found> scan(List<Path> dirs) {
        List<Found> out = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            List<Path> files = new ArrayList<>();
            try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir, "*.{json,yaml}")) {
                listing.forEach(files::add);
            } catch (IOException e) {
                out.add(new Found(dir, Optional.empty(), "cannot list: " + e.getMessage()));
                continue;
            }
            files.sort(null);
            for (Path f : files) {
                try {
                    out.add(new Found(f, Optional.of(CdiJson.decode(Files.readString(f), isYaml(f.toString()))), ""));
                } catch (IOException | RuntimeException e) {
                    out.add(new Found(f, Optional.empty(), e.getMessage()));
                }
            }
        }
        return out;
    }

    private static boolean isYaml(String fileName) {
        return fileName.endsWith(".yaml");
    }

    private static void requireSpecFileName(String fileName) {
        if (fileName == null || fileName.contains("/") || fileName.startsWith(".")
                || !(fileName.endsWith(".json") || fileName.endsWith(".yaml"))) {
            throw new IllegalArgumentException("a CDI spec file name is a plain *.json or *.yaml name, got \"" + fileName + "\"");
        }
    }

    /**
     * One file found by {@link #scan}.
     *
     * @param file  the file
     * @param spec  its spec; empty when it could not be read
     * @param error why it could not be read; empty otherwise
     */
    public record Found(Path file, Optional<CdiSpec> spec, String error) {
    }
}
