package io.vgpu.deviceplugin.host;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Replaces a file's content atomically: readers see the old content or the new one, never a part,
 * even when the process dies half way. The content goes to a hidden temporary file in the same
 * directory ({@code .<name>.<random>.tmp}: it never ends in {@code .json} or {@code .yaml}, so a
 * CDI runtime scanning the directory never loads it), is forced to disk, and is renamed over the
 * target; then the directory entry is forced too. Blocking file I/O: never on an event loop.
 */
public final class AtomicFiles {

    private static final String TEMP_SUFFIX = ".tmp";

    private AtomicFiles() {
    }

    /**
     * Writes {@code content} to {@code target} (creating its directory) atomically.
     *
     * @throws IOException when any step fails; the temporary file is then removed and the target is untouched
     */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + TEMP_SUFFIX);
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot rename atomically in " + dir + ": " + e.getMessage(), e);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        forceDirectory(dir);
    }

    /**
     * Removes temporary files that {@link #write} left for {@code targetName} when the process died
     * between creating and renaming them.
     *
     * @return how many were removed
     */
    public static int removeLeftovers(Path dir, String targetName) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, "." + globEscape(targetName) + ".*" + TEMP_SUFFIX)) {
            for (Path t : temps) {
                if (Files.deleteIfExists(t)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Best effort: some file systems cannot open a directory for forcing. */
    private static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the rename itself is atomic; only its durability across a power loss is weaker there
        }
    }

    private static String globEscape(String name) {
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            if ("*?[]{}\\".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
