package io.vgpu.hamicore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.vgpu.hamicore.RegionLoad.Absent;
import io.vgpu.hamicore.RegionLoad.Loaded;
import io.vgpu.hamicore.RegionLoad.Reason;
import io.vgpu.hamicore.RegionLoad.Rejected;

/**
 * HAMi's {@code loadCache} (region spec §1.5), rule for rule, plus the rejection of the interim
 * layout that HAMi silently misreads.
 */
final class RegionLoader {

    /** {@code headerT}: initialized_flag, major_version, minor_version. */
    static final int HEADER_BYTES = 12;
    private static final int V0_MIN = RegionLayout.V0.structSize();
    private static final int V1_MIN = RegionLayout.V1.structSize();

    private RegionLoader() {
    }

    static RegionLoad loadDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new Rejected(Reason.DIRECTORY_MISSING, "container directory " + dir + " does not exist");
        }
        List<String> names;
        try (Stream<Path> entries = Files.list(dir)) {
            names = entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return new Rejected(Reason.IO_ERROR, "cannot list " + dir + ": " + e);
        }
        long candidates = names.stream().filter(n -> n.contains("libvgpu.so") || n.endsWith(".cache")).count();
        if (candidates > 2) {
            return new Rejected(Reason.TOO_MANY_FILES, "cache num not matched: " + candidates
                    + " .cache/libvgpu.so entries in " + dir);
        }
        Optional<String> cache = names.stream()
                .filter(n -> n.endsWith(".cache") && !n.contains("libvgpu.so"))
                .findFirst();
        if (cache.isEmpty()) {
            return new Absent("no .cache file in " + dir + " (no CUDA process has initialised yet)");
        }
        return openFile(dir.resolve(cache.get()));
    }

    static RegionLoad openFile(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return new Rejected(Reason.FILE_MISSING, "cache file " + file + " does not exist");
        } catch (IOException e) {
            return new Rejected(Reason.IO_ERROR, "cannot stat cache file " + file + ": " + e);
        }
        if (!attributes.isRegularFile()) {
            return new Rejected(Reason.IO_ERROR, "cache file " + file + " is not a regular file");
        }
        long size = attributes.size();
        if (size < HEADER_BYTES) {
            return new Rejected(Reason.TOO_SMALL, "cache file size " + size + " too small");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // read until the header is complete or the file turns out shorter than stat said
            }
            if (header.hasRemaining()) {
                return new Rejected(Reason.TOO_SMALL, "cache file size " + channel.size() + " too small");
            }
            int magic = header.getInt(0);
            int major = header.getInt(4);
            int minor = header.getInt(8);
            if (magic != SharedRegion.MAGIC) {
                return new Rejected(Reason.BAD_MAGIC, "cache file magic flag not matched (" + magic + ")");
            }
            Optional<RegionLayout> layout = layoutFor(size, major);
            if (layout.isEmpty()) {
                return new Rejected(Reason.UNKNOWN_LAYOUT, "unknown cache file size " + size + " version "
                        + major + "." + minor + preV0Hint(size));
            }
            if (looksTruncatedV1(size, layout.get(), major, minor)) {
                return new Rejected(Reason.TRUNCATED, "cache file size " + size + " is below the v1 struct size " + V1_MIN
                        + " but its header says version " + major + "." + minor + ": a truncated v1 region");
            }
            if (isInterim(size, layout.get(), minor)) {
                return new Rejected(Reason.INTERIM_LAYOUT, "cache file size " + size + " version " + major + "."
                        + minor + " is the interim HAMi-core 1.1+seqlock layout (commits 1988c5d..b69b1ea), whose"
                        + " fields sit 32 bytes later than v1's; upgrade HAMi-core and delete the file");
            }
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.get().structSize());
            return new Loaded(new MappedSharedRegion(mapped, layout.get(), file), file, warnings(layout.get(), minor));
        } catch (IOException | RuntimeException e) {
            return new Rejected(Reason.IO_ERROR, "cannot open or map cache file " + file + ": " + e);
        }
    }

    /** HAMi's factories: v0 by size range alone, v1 by major 1 and a size of at least the struct. */
    static Optional<RegionLayout> layoutFor(long size, int major) {
        if (size >= V0_MIN && size < V1_MIN) {
            return Optional.of(RegionLayout.V0);
        }
        if (major == 1 && size >= V1_MIN) {
            return Optional.of(RegionLayout.V1);
        }
        return Optional.empty();
    }

    /**
     * A file in v0's size range whose bytes 4..11 read as version 1.1 or 1.2 is a cut-off v1 file:
     * in v0 those bytes are sm_init_flag, which only dead code ever sets, and owner_pid. HAMi
     * would read it as v0 and report garbage.
     */
    static boolean looksTruncatedV1(long size, RegionLayout layout, int major, int minor) {
        return layout == RegionLayout.V0 && major == 1 && (minor == 1 || minor == 2) && size < V1_MIN;
    }

    /**
     * Only the interim era wrote 2008985-byte files (struct 2008984 + NUL) with version 1.1; later
     * HAMi-core keeps its lock byte beyond the struct without growing the file to that size.
     */
    static boolean isInterim(long size, RegionLayout layout, int minor) {
        return layout == RegionLayout.V1 && minor == 1 && size == HamiCoreHeaders.INTERIM.fileSize();
    }

    private static String preV0Hint(long size) {
        int preV0 = HamiCoreHeaders.PRE_V0.region().sizeof();
        return size == preV0 || size == preV0 + 1L
                ? " (the size of the pre-v0 HAMi-core layout, which has no utilisation fields and is not supported)"
                : "";
    }

    private static List<String> warnings(RegionLayout layout, int minor) {
        List<String> warnings = new ArrayList<>();
        if (layout == RegionLayout.V1 && minor != 1 && minor != 2) {
            warnings.add("minor version " + minor + " is neither 1 nor 2; read with the v1 layout as HAMi does");
        }
        return warnings;
    }
}
