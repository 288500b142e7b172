package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.vgpu.deviceplugin.core.monitor.ContainerDirectory;
import io.vgpu.deviceplugin.core.monitor.ContainerDirectory.Retention;
import io.vgpu.hamicore.RegionLoad;
import io.vgpu.hamicore.SharedRegions;

/**
 * Tracks the HAMi-core regions under {@code <hook>/vgpu/containers} (HAMi's
 * {@code ContainerLister.Update}, spec §4.2). Each {@link #update} scan:
 * <ol>
 *   <li>lists the containers directory (missing: the scan fails and changes nothing);</li>
 *   <li>skips plain files, symbolic links and names that are not {@code <podUID>_<container>};</li>
 *   <li>for a pod not on this node: keeps the directory during the grace period (without loading
 *       it), afterwards forgets its region and deletes the directory;</li>
 *   <li>keeps a region already mapped; otherwise maps the directory's region with hamicore-jni's
 *       {@code loadCache} rules. No file yet is silently retried next scan; a bad file (wrong size,
 *       wrong magic, unknown version, too many files) is reported and retried next scan.</li>
 * </ol>
 * Two deliberate differences from HAMi: a tracked region whose directory disappeared, or whose
 * {@code .cache} file was replaced (a re-Allocate recreates the directory), is dropped and the
 * directory reloaded, instead of being read forever from the unlinked file (spec §6 item 18); and a
 * directory whose modification time cannot be read is kept rather than deleted.
 *
 * <p>Never takes a region's semaphore (HAMi#2500). Thread-safe: scans are serialised; readers get
 * snapshots. Does file I/O and mmap: call it off the event loop.
 */
public final class ContainerLister {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerLister.class);

    private final Path containersDirectory;
    private final Duration resyncInterval;
    private final Clock clock;
    private final Map<String, TrackedContainer> tracked = new LinkedHashMap<>();
    /** Last problem reported per directory, so a file that stays bad is logged once, not every 5 s. */
    private final Map<String, String> reported = new HashMap<>();

    /**
     * @param containersDirectory {@code <hook>/vgpu/containers}
     * @param resyncInterval      grace period for directories of unknown pods
     * @param clock               for the grace period
     */
    public ContainerLister(Path containersDirectory, Duration resyncInterval, Clock clock) {
        this.containersDirectory = Objects.requireNonNull(containersDirectory, "containersDirectory");
        this.resyncInterval = Objects.requireNonNull(resyncInterval, "resyncInterval");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The directory scanned. */
    public Path containersDirectory() {
        return containersDirectory;
    }

    /** The regions tracked now, in the order they were first mapped. */
    public synchronized List<TrackedContainer> containers() {
        return List.copyOf(tracked.values());
    }

    /**
     * Scans once.
     *
     * @param podUidsOnNode UIDs of the pods scheduled on this node (a complete list)
     */
    public synchronized ScanReport update(Set<String> podUidsOnNode) {
        List<Path> entries;
        try (Stream<Path> listing = Files.list(containersDirectory)) {
            entries = listing.sorted().toList();
        } catch (IOException | RuntimeException e) {
            return ScanReport.failed("cannot list " + containersDirectory + ": " + describe(e), tracked.size());
        }
        Scan scan = new Scan(podUidsOnNode, clock.instant());
        for (Path entry : entries) {
            scan.entry(entry);
        }
        scan.forgetVanished();
        return scan.report();
    }

    /** One scan's working state. */
    private final class Scan {
        private final Set<String> podUids;
        private final Instant now;
        private final Set<String> present = new HashSet<>();
        private final List<String> added = new ArrayList<>();
        private final List<String> forgotten = new ArrayList<>();
        private final List<String> deleted = new ArrayList<>();
        private final Map<String, String> problems = new TreeMap<>();

        Scan(Set<String> podUids, Instant now) {
            this.podUids = podUids;
            this.now = now;
        }

        void entry(Path dir) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            String name = dir.getFileName().toString();
            present.add(name);
            Optional<ContainerDirectory> parsed = ContainerDirectory.parse(name);
            if (parsed.isEmpty()) {
                problem(name, "not a <podUID>_<container> directory name; skipped");
                return;
            }
            ContainerDirectory id = parsed.get();
            Optional<Instant> modified = modified(dir);
            if (modified.isEmpty()) {
                return;
            }
            Retention retention = ContainerDirectory.retention(podUids.contains(id.podUid()), modified.get(), now,
                    resyncInterval);
            switch (retention) {
                case GRACE -> { }
                case REMOVE -> remove(name, dir);
                case TRACK -> track(name, dir, id);
            }
        }

        private Optional<Instant> modified(Path dir) {
            try {
                return Optional.of(Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toInstant());
            } catch (IOException | RuntimeException e) {
                problem(dir.getFileName().toString(), "cannot read the modification time: " + describe(e) + "; kept");
                return Optional.empty();
            }
        }

        private void remove(String name, Path dir) {
            if (tracked.remove(name) != null) {
                forgotten.add(name);
            }
            reported.remove(name);
            try {
                deleteRecursively(dir);
                deleted.add(name);
                LOG.info("removed container directory {} (its pod is no longer on this node)", dir);
            } catch (IOException | RuntimeException e) {
                problem(name, "cannot delete: " + describe(e));
            }
        }

        private void track(String name, Path dir, ContainerDirectory id) {
            TrackedContainer current = tracked.get(name);
            if (current != null) {
                if (Files.exists(current.file(), LinkOption.NOFOLLOW_LINKS)) {
                    return;
                }
                // the device plugin recreated the directory (re-Allocate): the old mapping is stale
                tracked.remove(name);
                forgotten.add(name);
                LOG.info("region file {} is gone; reloading {}", current.file(), dir);
            }
            RegionLoad load = SharedRegions.loadDirectory(dir);
            if (load instanceof RegionLoad.Loaded loaded) {
                tracked.put(name, new TrackedContainer(id.podUid(), id.containerName(), dir, loaded.file(),
                        loaded.region()));
                added.add(name);
                reported.remove(name);
                LOG.info("tracking region {} ({} layout) for pod {} container {}", loaded.file(),
                        loaded.region().layout(), id.podUid(), id.containerName());
                loaded.warnings().forEach(w -> LOG.warn("region {}: {}", loaded.file(), w));
            } else if (load instanceof RegionLoad.Rejected rejected) {
                problem(name, rejected.reason() + ": " + rejected.message());
            }
            // RegionLoad.Absent: no CUDA process has started in the container yet; look again next scan
        }

        /** Drops regions whose directory is gone (HAMi keeps them forever). */
        void forgetVanished() {
            tracked.keySet().removeIf(name -> {
                if (present.contains(name)) {
                    return false;
                }
                forgotten.add(name);
                LOG.info("container directory {} disappeared; region forgotten", name);
                return true;
            });
            reported.keySet().retainAll(present);
        }

        private void problem(String name, String message) {
            problems.put(name, message);
            if (!message.equals(reported.put(name, message))) {
                LOG.warn("container directory {} in {}: {}", name, containersDirectory, message);
            }
        }

        ScanReport report() {
            return new ScanReport("", added, forgotten, deleted, problems, tracked.size());
        }
    }

    /** Deletes {@code dir} and its contents without following symbolic links. */
    private static void deleteRecursively(Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static String describe(Exception e) {
        return e instanceof NoSuchFileException ? "does not exist" : e.toString();
    }
}
