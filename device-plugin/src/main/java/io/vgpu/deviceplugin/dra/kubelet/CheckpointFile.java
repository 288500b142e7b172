package io.vgpu.deviceplugin.dra.kubelet;

import io.vgpu.deviceplugin.dra.prepare.CheckpointStore;
import io.vgpu.deviceplugin.dra.prepare.PreparedClaim;
import io.vgpu.deviceplugin.host.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * {@link CheckpointStore} as one JSON file ({@link CheckpointJson}) replaced atomically at every
 * save ({@link AtomicFiles}: fsync, rename, fsync of the directory), so a crash leaves the previous
 * record or the new one. A file that exists but cannot be read fails {@link #load}: the plugin then
 * does not start rather than forget prepared claims (the message names the file to inspect).
 * Blocking I/O runs on {@code executor}.
 */
public final class CheckpointFile implements CheckpointStore {

    private final Path file;
    private final Executor executor;

    CheckpointFile(Path file, Executor executor) {
        this.file = Objects.requireNonNull(file, "file");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Reads a checkpoint without taking part in it (the vGPU monitor labels DRA regions from it).
     * Blocking.
     *
     * @return the prepared claims by UID; empty when there is no file
     * @throws IOException when the file cannot be read or is not a checkpoint
     */
    public static Map<String, PreparedClaim> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            return CheckpointJson.decode(Files.readString(file));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not a DRA checkpoint: " + e.getMessage(), e);
        }
    }

    @Override
    public CompletionStage<Map<String, PreparedClaim>> load() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                AtomicFiles.removeLeftovers(file.getParent(), file.getFileName().toString());
                if (!Files.exists(file)) {
                    return Map.of();
                }
                return CheckpointJson.decode(Files.readString(file));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the DRA checkpoint " + file + ": " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("the DRA checkpoint " + file + " cannot be read (" + e.getMessage()
                        + "); move it away only after unpreparing its claims by hand", e);
            }
        }, executor);
    }

    @Override
    public CompletionStage<Void> save(Map<String, PreparedClaim> claims) {
        return CompletableFuture.runAsync(() -> {
            try {
                AtomicFiles.write(file, CheckpointJson.encode(claims).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the DRA checkpoint " + file + ": " + e.getMessage(), e);
            }
        }, executor);
    }
}
