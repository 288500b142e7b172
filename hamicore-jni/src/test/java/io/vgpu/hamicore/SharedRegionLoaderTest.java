package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.vgpu.hamicore.RegionLoad.Loaded;
import io.vgpu.hamicore.RegionLoad.Reason;
import io.vgpu.hamicore.RegionLoad.Rejected;

import static io.vgpu.hamicore.SharedRegion.MAGIC;
import static org.assertj.core.api.Assertions.assertThat;

/** Bad and unusual region files: every one an outcome value, never an exception or a crash. */
class SharedRegionLoaderTest {

    private static final int V1 = RegionLayout.V1.structSize();
    private static final int V0 = RegionLayout.V0.structSize();

    @TempDir
    Path dir;

    static Stream<Arguments> rejectedFiles() {
        return Stream.of(
                Arguments.of("empty file", 0L, MAGIC, 1, 2, Reason.TOO_SMALL, "too small"),
                Arguments.of("shorter than the 12-byte header", 11L, MAGIC, 1, 2, Reason.TOO_SMALL, "too small"),
                Arguments.of("wrong magic", (long) V1 + 1, 0x1234, 1, 2, Reason.BAD_MAGIC, "magic flag not matched"),
                Arguments.of("not initialised yet (magic 0)", (long) V1 + 1, 0, 1, 2, Reason.BAD_MAGIC, "magic flag not matched"),
                Arguments.of("unknown major version", (long) V1 + 1, MAGIC, 2, 0, Reason.UNKNOWN_LAYOUT,
                        "unknown cache file size 2008953 version 2.0"),
                Arguments.of("v1 header, far too small", 4096L, MAGIC, 1, 2, Reason.UNKNOWN_LAYOUT, "unknown cache file size"),
                Arguments.of("v1 header, cut inside the v0 size range", (long) V1 - 1, MAGIC, 1, 2, Reason.TRUNCATED,
                        "truncated v1 region"),
                Arguments.of("pre-v0 layout", 804681L, MAGIC, 0, 0, Reason.UNKNOWN_LAYOUT, "pre-v0"),
                Arguments.of("interim 1.1+seqlock layout", 2008985L, MAGIC, 1, 1, Reason.INTERIM_LAYOUT, "interim"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedFiles")
    void rejectsBadFilesWithAReason(String name, long size, int magic, int major, int minor, Reason reason, String text)
            throws IOException {
        Path file = RegionFixtures.file(dir, "x.cache", size, magic, major, minor);
        RegionLoad load = SharedRegions.openFile(file);
        assertThat(load).isInstanceOfSatisfying(Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.message()).contains(text);
        });
    }

    static Stream<Arguments> acceptedFiles() {
        return Stream.of(
                Arguments.of("v1.2 as libvgpu writes it (struct + NUL)", (long) V1 + 1, 1, 2, RegionLayout.V1),
                Arguments.of("v1 exactly the struct size", (long) V1, 1, 1, RegionLayout.V1),
                Arguments.of("v1 with bytes beyond the struct (newer lock byte)", (long) V1 + 4096, 1, 2, RegionLayout.V1),
                Arguments.of("v1 minor 0 (HAMi never checks minor)", (long) V1, 1, 0, RegionLayout.V1),
                Arguments.of("v0 struct size", (long) V0, 0, 0, RegionLayout.V0),
                Arguments.of("v0 as libvgpu wrote it (struct + NUL)", (long) V0 + 1, 0, 0, RegionLayout.V0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedFiles")
    void mapsSupportedLayoutsWhateverTheTail(String name, long size, int major, int minor, RegionLayout layout)
            throws IOException {
        Path file = RegionFixtures.file(dir, "x.cache", size, MAGIC, major, minor);
        RegionLoad load = SharedRegions.openFile(file);
        assertThat(load).isInstanceOfSatisfying(Loaded.class, l -> {
            assertThat(l.region().layout()).isEqualTo(layout);
            assertThat(l.region().isInitialized()).isTrue();
            assertThat(l.file()).isEqualTo(file);
        });
        assertThat(Files.size(file)).as("loading never resizes the file").isEqualTo(size);
    }

    @Test
    void warnsAboutAnUnknownMinorVersionButLoads() throws IOException {
        RegionLoad load = SharedRegions.openFile(RegionFixtures.file(dir, "x.cache", V1 + 1, MAGIC, 1, 7));
        assertThat(load).isInstanceOfSatisfying(Loaded.class,
                l -> assertThat(l.warnings()).singleElement().asString().contains("minor version 7"));
    }

    @Test
    void missingFileAndMissingDirectoryAreRejections() {
        assertThat(SharedRegions.openFile(dir.resolve("absent.cache")))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.FILE_MISSING));
        assertThat(SharedRegions.loadDirectory(dir.resolve("absent")))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.DIRECTORY_MISSING));
        assertThat(SharedRegions.mapAs(dir.resolve("absent.cache"), RegionLayout.V1))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.FILE_MISSING));
    }

    @Test
    void aDirectoryNamedLikeACacheFileIsRejectedNotThrown() throws IOException {
        Files.createDirectory(dir.resolve("x.cache"));
        assertThat(SharedRegions.loadDirectory(dir))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.IO_ERROR));
    }

    @Test
    void picksTheFirstCacheFileByNameAndIgnoresTheLibvgpuPlaceholder() throws IOException {
        RegionFixtures.v1(dir, "b.cache");
        RegionFixtures.file(dir, "a.cache", 64, 0, 0, 0);
        // a.cache sorts first and is bad: the loader does not fall back to b.cache (HAMi neither)
        assertThat(SharedRegions.loadDirectory(dir))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.BAD_MAGIC));
        Files.delete(dir.resolve("a.cache"));
        Files.writeString(dir.resolve("libvgpu.so"), "");
        assertThat(SharedRegions.loadDirectory(dir)).isInstanceOfSatisfying(Loaded.class,
                l -> assertThat(l.file().getFileName()).hasToString("b.cache"));
    }

    @Test
    void threeCacheOrLibvgpuEntriesAreTooMany() throws IOException {
        Files.writeString(dir.resolve("libvgpu.so"), "");
        RegionFixtures.v1(dir, "a.cache");
        RegionFixtures.v1(dir, "b.cache");
        Files.writeString(dir.resolve("notes.txt"), "unrelated files do not count");
        assertThat(SharedRegions.loadDirectory(dir)).isInstanceOfSatisfying(Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(Reason.TOO_MANY_FILES);
            assertThat(r.message()).contains("cache num not matched");
        });
    }

    @Test
    void aDirectoryWithoutACacheFileHasNoRegionYet() throws IOException {
        Files.writeString(dir.resolve("libvgpu.so"), "");
        assertThat(SharedRegions.loadDirectory(dir)).isInstanceOf(RegionLoad.Absent.class);
    }

    @Test
    void mapAsRefusesFilesSmallerThanTheLayout() throws IOException {
        Path file = RegionFixtures.file(dir, "small.cache", V0, MAGIC, 0, 0);
        assertThat(SharedRegions.mapAs(file, RegionLayout.V1))
                .isInstanceOfSatisfying(Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.TOO_SMALL));
        assertThat(SharedRegions.mapAs(file, RegionLayout.V0)).isInstanceOf(Loaded.class);
    }
}
