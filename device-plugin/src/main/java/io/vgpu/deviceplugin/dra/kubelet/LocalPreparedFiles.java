package io.vgpu.deviceplugin.dra.kubelet;

import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.cdi.CdiSpecFiles;
import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.dra.prepare.PreparedClaim;
import io.vgpu.deviceplugin.dra.prepare.PreparedFiles;
import io.vgpu.deviceplugin.host.LocalHostFiles;
import io.vgpu.state.dra.DraNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * {@link PreparedFiles} on the local file system: CDI specs in the dynamic CDI directory
 * ({@link CdiSpecFiles}, atomic), HAMi-core cache directories {@code H/vgpu/claims/<uid>} (host paths
 * resolved under the host root, as {@link LocalHostFiles} does), and the static CDI directories read
 * for {@code nvidia-ctk}'s spec. Blocking I/O runs on {@code executor}.
 */
final class LocalPreparedFiles implements PreparedFiles {

    private static final String OWN_PREFIX = DraNames.CDI_KIND.replace('/', '-') + "_";

    private final LocalHostFiles host;
    private final CdiSpecFiles specs;
    private final List<Path> staticDirs;
    private final HookPaths hookPaths;
    private final Executor executor;

    /**
     * @param host       resolves host paths (the cache directories, HAMi-core's files)
     * @param specs      the dynamic CDI directory
     * @param staticDirs where a static {@code nvidia-ctk} spec may be
     * @param hookPaths  HAMi-core's files
     */
    LocalPreparedFiles(LocalHostFiles host, CdiSpecFiles specs, List<Path> staticDirs, HookPaths hookPaths, Executor executor) {
        this.host = Objects.requireNonNull(host, "host");
        this.specs = Objects.requireNonNull(specs, "specs");
        this.staticDirs = List.copyOf(staticDirs);
        this.hookPaths = Objects.requireNonNull(hookPaths, "hookPaths");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public CompletionStage<Host> inspect() {
        return CompletableFuture.supplyAsync(() -> {
            List<Map.Entry<String, CdiSpec>> found = new ArrayList<>();
            for (CdiSpecFiles.Found f : CdiSpecFiles.scan(staticDirs)) {
                f.spec().filter(s -> !DraNames.CDI_KIND.equals(s.kind()))
                        .ifPresent(s -> found.add(new AbstractMap.SimpleImmutableEntry<>(f.file().toString(), s)));
            }
            return new Host(found, new HookFiles(
                    hookPaths.versionedLibrary() != null && Files.exists(host.resolve(hookPaths.versionedLibrary())),
                    Files.exists(host.resolve(hookPaths.license()))));
        }, executor);
    }

    @Override
    public CompletionStage<Void> write(PreparedClaim claim) {
        return CompletableFuture.runAsync(() -> {
            if (claim.spec().isEmpty()) {
                return;
            }
            try {
                Path dir = host.resolve(claim.claimDir());
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    LocalHostFiles.worldWritableDirectory(dir);
                }
                specs.write(claim.specFileName(), claim.spec().get());
            } catch (IOException e) {
                throw new UncheckedIOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            }
        }, executor);
    }

    @Override
    public CompletionStage<Void> remove(PreparedClaim claim) {
        return CompletableFuture.runAsync(() -> {
            try {
                specs.remove(claim.specFileName());
                LocalHostFiles.deleteRecursively(host.resolve(claim.claimDir()));
            } catch (IOException e) {
                throw new UncheckedIOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            }
        }, executor);
    }

    /**
     * Removes what a crash between writing a claim's files and saving the checkpoint left behind:
     * this driver's claim specs and cache directories of UIDs the checkpoint does not know.
     * Other files are never touched.
     *
     * @param keep the UIDs in the checkpoint
     * @return what was removed
     */
    CompletionStage<List<Path>> sweep(Set<String> keep) {
        return CompletableFuture.supplyAsync(() -> {
            List<Path> removed = new ArrayList<>();
            try {
                for (Path spec : list(specs.directory(), OWN_PREFIX + "*.json")) {
                    String name = spec.getFileName().toString();
                    String uid = name.substring(OWN_PREFIX.length(), name.length() - ".json".length());
                    if (!keep.contains(uid) && specs.remove(name)) {
                        removed.add(spec);
                    }
                }
                for (Path dir : list(host.resolve(hookPaths.vgpuDir() + "/claims"), "*")) {
                    if (!keep.contains(dir.getFileName().toString()) && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                        LocalHostFiles.deleteRecursively(dir);
                        removed.add(dir);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
            }
            return removed;
        }, executor);
    }

    private static List<Path> list(Path dir, String glob) throws IOException {
        List<Path> out = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, glob)) {
                entries.forEach(out::add);
            }
        }
        return out;
    }
}
