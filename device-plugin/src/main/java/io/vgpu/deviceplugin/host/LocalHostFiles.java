package io.vgpu.deviceplugin.host;

import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.core.port.HostFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * {@link HostFiles} on the local file system. Host paths (as HAMi names them, e.g.
 * {@code /usr/local/vgpu/containers/<uid>_<ctr>}) are resolved under {@code hostRoot}: {@code /} in
 * the DaemonSet, where the chart mounts those paths at the same place; a temporary directory in tests.
 * The I/O runs on {@code executor}.
 */
public final class LocalHostFiles implements HostFiles {

    private static final Set<PosixFilePermission> WORLD_WRITABLE = PosixFilePermissions.fromString("rwxrwxrwx");

    private final Path hostRoot;
    private final Executor executor;

    /**
     * @param hostRoot where host paths are visible ({@code /} in the DaemonSet)
     * @param executor where the blocking I/O runs (never an event loop)
     */
    public LocalHostFiles(Path hostRoot, Executor executor) {
        this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Where a host path is visible to this process. */
    public Path resolve(String hostPath) {
        String relative = hostPath.startsWith("/") ? hostPath.substring(1) : hostPath;
        return hostRoot.resolve(relative);
    }

    @Override
    public CompletionStage<HookFiles> inspect(HookPaths paths) {
        return CompletableFuture.supplyAsync(() -> new HookFiles(
                paths.versionedLibrary() != null && Files.exists(resolve(paths.versionedLibrary())),
                Files.exists(resolve(paths.license()))), executor);
    }

    @Override
    public CompletionStage<Void> prepare(List<String> containerDirs, String lockDir) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (String dir : containerDirs) {
                    Path path = resolve(dir);
                    deleteRecursively(path);
                    worldWritableDirectory(path);
                }
                if (!containerDirs.isEmpty()) {
                    worldWritableDirectory(resolve(lockDir));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            }
        }, executor);
    }

    /** mkdir -p, then chmod 0777 (HAMi-core in every container writes there). Blocking. */
    public static void worldWritableDirectory(Path path) throws IOException {
        Files.createDirectories(path);
        try {
            Files.setPosixFilePermissions(path, WORLD_WRITABLE);
        } catch (UnsupportedOperationException notPosix) {
            // non-POSIX file systems have no mode bits to set
        }
    }

    /** rm -rf without following symbolic links; nothing to do when {@code path} does not exist. Blocking. */
    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
