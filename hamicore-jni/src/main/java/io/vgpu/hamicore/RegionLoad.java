package io.vgpu.hamicore;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of looking for a HAMi-core region ({@link SharedRegions#loadDirectory},
 * {@link SharedRegions#openFile}): a mapped region, no region yet, or a rejection with a reason.
 * Bad files are outcomes, not exceptions; nothing on this path throws on bad input.
 */
public sealed interface RegionLoad permits RegionLoad.Loaded, RegionLoad.Absent, RegionLoad.Rejected {

    /** The region when {@link Loaded}, else empty. */
    default Optional<SharedRegion> loadedRegion() {
        return this instanceof Loaded loaded ? Optional.of(loaded.region()) : Optional.empty();
    }

    /**
     * A region was mapped.
     *
     * @param region   the mapped region
     * @param file     the file it was mapped from
     * @param warnings oddities that did not stop the load (e.g. an unknown minor version)
     */
    record Loaded(SharedRegion region, Path file, List<String> warnings) implements RegionLoad {
        public Loaded {
            Objects.requireNonNull(region, "region");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * No region yet: the directory holds no {@code .cache} file because no CUDA process of the
     * container has started. Not an error; look again later.
     *
     * @param reason what was found instead
     */
    record Absent(String reason) implements RegionLoad {
    }

    /**
     * The directory or file cannot be used.
     *
     * @param reason  the kind of problem
     * @param message a human-readable explanation; it contains HAMi's own error text where HAMi
     *                has one ({@code cache num not matched}, {@code too small},
     *                {@code magic flag not matched}, {@code unknown cache file size})
     */
    record Rejected(Reason reason, String message) implements RegionLoad {
    }

    /** Why a region was rejected. */
    enum Reason {
        /** The container directory does not exist or is not a directory. */
        DIRECTORY_MISSING,
        /** More than two {@code .cache}/{@code libvgpu.so} entries ({@code cache num not matched}). */
        TOO_MANY_FILES,
        /** The region file does not exist. */
        FILE_MISSING,
        /** Smaller than the 12-byte header. */
        TOO_SMALL,
        /** {@code initialized_flag} is not 19920718: not (yet) initialised or not a region. */
        BAD_MAGIC,
        /** Size and version match no supported layout (this includes the pre-v0 layout). */
        UNKNOWN_LAYOUT,
        /** In v0's size range but with a v1 header: a v1 file cut short. */
        TRUNCATED,
        /** A file of the short-lived interim 1.1+seqlock layout, whose fields sit at other offsets. */
        INTERIM_LAYOUT,
        /** An I/O error: unreadable, not a regular file, mapping failed. */
        IO_ERROR
    }
}
