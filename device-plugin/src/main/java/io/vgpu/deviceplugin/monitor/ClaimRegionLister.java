package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.vgpu.hamicore.RegionLoad;
import io.vgpu.hamicore.SharedRegions;

/**
 * Tracks the HAMi-core regions of DRA claims: {@code <hook>/vgpu/claims/<claim UID>/<request>.cache},
 * one file per claim request, created by HAMi-core in the first CUDA process of a container that uses
 * the request (the DRA kubelet plugin creates the directory at NodePrepareResources and removes it at
 * NodeUnprepareResources). Each {@link #update} maps new files (HAMi's {@code loadCache} checks), keeps
 * mapped ones, and forgets those whose file is gone; a file that cannot be mapped yet (still being
 * initialised, or bad) is retried next scan and reported once. Unlike the container directories, the
 * monitor never deletes anything here: the plugin owns these directories.
 *
 * <p>Never takes a region's semaphore. Thread-safe; file I/O and mmap: call it off the event loop.
 */
public final class ClaimRegionLister {

    private static final Logger LOG = LoggerFactory.getLogger(ClaimRegionLister.class);
    private static final String SUFFIX = ".cache";

    private final Path claimsDirectory;
    private final Map<Path, TrackedClaimRegion> tracked = new LinkedHashMap<>();
    private final Map<Path, String> reported = new HashMap<>();

    /** @param claimsDirectory {@code <hook>/vgpu/claims} */
    public ClaimRegionLister(Path claimsDirectory) {
        this.claimsDirectory = Objects.requireNonNull(claimsDirectory, "claimsDirectory");
    }

    /** The regions tracked now, in the order they were first mapped. */
    public synchronized List<TrackedClaimRegion> regions() {
        return List.copyOf(tracked.values());
    }

    /** Scans once; a missing claims directory means no DRA claim on this node. */
    public synchronized void update() {
        Map<Path, String[]> present = new LinkedHashMap<>();
        if (Files.isDirectory(claimsDirectory)) {
            try (DirectoryStream<Path> claims = Files.newDirectoryStream(claimsDirectory)) {
                for (Path claim : claims) {
                    if (!Files.isDirectory(claim, LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(claim, "*" + SUFFIX)) {
                        for (Path f : files) {
                            String name = f.getFileName().toString();
                            present.put(f, new String[] {claim.getFileName().toString(),
                                    name.substring(0, name.length() - SUFFIX.length())});
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot list {}: {}; DRA regions unchanged this scan", claimsDirectory, e.toString());
                return;
            }
        }
        tracked.keySet().removeIf(file -> {
            boolean gone = !present.containsKey(file);
            if (gone) {
                LOG.info("DRA region {} is gone (claim unprepared); forgotten", file);
            }
            return gone;
        });
        reported.keySet().retainAll(present.keySet());
        present.forEach((file, id) -> {
            if (!tracked.containsKey(file)) {
                load(file, id[0], id[1]);
            }
        });
    }

    private void load(Path file, String claimUid, String request) {
        RegionLoad load = SharedRegions.openFile(file);
        if (load instanceof RegionLoad.Loaded loaded) {
            tracked.put(file, new TrackedClaimRegion(claimUid, request, file, loaded.region()));
            reported.remove(file);
            LOG.info("tracking DRA region {} ({} layout) of claim {} request {}", file, loaded.region().layout(), claimUid,
                    request);
        } else if (load instanceof RegionLoad.Rejected rejected) {
            String message = rejected.reason() + ": " + rejected.message();
            if (!message.equals(reported.put(file, message))) {
                LOG.warn("DRA region {}: {} (retried every scan)", file, message);
            }
        }
    }
}
