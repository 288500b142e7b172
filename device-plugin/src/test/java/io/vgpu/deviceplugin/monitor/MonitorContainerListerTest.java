package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Stream;

import io.vgpu.testsupport.ManualClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorContainerListerTest {

    private static final String UID = "0b6f4a8e-4c1d-4f0a-9a0e-000000000001";
    private static final String GPU = "GPU-12345678-1234-1234-1234-123456789012";
    private static final Duration RESYNC = Duration.ofMinutes(5);

    @TempDir
    Path hook;
    private Path containers;
    private ManualClock clock;
    private ContainerLister lister;

    @BeforeEach
    void setUp() throws IOException {
        containers = Files.createDirectories(hook.resolve("vgpu/containers"));
        clock = new ManualClock(Instant.now());
        lister = new ContainerLister(containers, RESYNC, clock);
    }

    @Test
    void tracksTheRegionOfAContainerOfAPodOnThisNode() throws IOException {
        Path file = MonitorRegionFiles.v1().uuid(GPU).process(8000, 1000, 500, 300, 42).writeTo(containers, UID, "worker");

        ScanReport first = lister.update(Set.of(UID));
        ScanReport second = lister.update(Set.of(UID));

        assertThat(first.ok()).isTrue();
        assertThat(first.added()).containsExactly(UID + "_worker");
        assertThat(second.added()).isEmpty();
        assertThat(lister.containers()).singleElement().satisfies(c -> {
            assertThat(c.podUid()).isEqualTo(UID);
            assertThat(c.containerName()).isEqualTo("worker");
            assertThat(c.file()).isEqualTo(file);
            assertThat(c.usage().deviceMemoryTotal(0)).isEqualTo(8000);
            assertThat(c.usage().deviceSmUtil(0)).isEqualTo(42);
        });
    }

    @Test
    void aMissingContainersDirectoryFailsTheScanWithoutThrowing() throws IOException {
        ContainerLister missing = new ContainerLister(hook.resolve("nowhere/containers"), RESYNC, clock);

        ScanReport report = missing.update(Set.of(UID));

        assertThat(report.ok()).isFalse();
        assertThat(report.error()).contains("nowhere/containers").contains("does not exist");
        assertThat(missing.containers()).isEmpty();
    }

    @Test
    void ignoresPlainFilesAndLinksAndReportsBadNames() throws IOException {
        Files.writeString(containers.resolve(UID + "_file"), "x");
        Path target = Files.createDirectories(hook.resolve("elsewhere"));
        MonitorRegionFiles.v1().uuid(GPU).writeTo(target, UID, "linked");
        Files.createSymbolicLink(containers.resolve(UID + "_link"), target.resolve(UID + "_linked"));
        Files.createDirectories(containers.resolve("nounderscore"));
        Files.createDirectories(containers.resolve(UID + "_"));

        ScanReport report = lister.update(Set.of(UID));

        assertThat(report.ok()).isTrue();
        assertThat(report.problems()).containsOnlyKeys("nounderscore", UID + "_");
        assertThat(lister.containers()).isEmpty();
    }

    @Test
    void anEmptyDirectoryIsRetriedUntilTheRegionAppears() throws IOException {
        Files.createDirectories(containers.resolve(UID + "_worker"));

        ScanReport before = lister.update(Set.of(UID));
        MonitorRegionFiles.v1().uuid(GPU).writeTo(containers, UID, "worker");
        ScanReport after = lister.update(Set.of(UID));

        assertThat(before.problems()).isEmpty();
        assertThat(before.tracked()).isZero();
        assertThat(after.added()).containsExactly(UID + "_worker");
    }

    static Stream<Arguments> badRegions() {
        return Stream.of(
                Arguments.of("wrong magic", MonitorRegionFiles.v1().uuid(GPU).magic(12345), "magic flag not matched"),
                Arguments.of("a v1 header in a 64-byte file", MonitorRegionFiles.v1().fileSize(64),
                        "unknown cache file size"),
                Arguments.of("too small for the header", MonitorRegionFiles.v1().fileSize(4), "too small"),
                Arguments.of("unknown major version", MonitorRegionFiles.v1().version(99, 0), "unknown cache file size"),
                Arguments.of("the interim 1.1+seqlock layout size", MonitorRegionFiles.v1().version(1, 1)
                        .fileSize(2008985), "INTERIM_LAYOUT"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRegions")
    void aBadRegionFileIsReportedAndRetriedNeverTracked(String name, MonitorRegionFiles.Builder region, String message)
            throws IOException {
        Path file = region.writeTo(containers, UID, "worker");

        ScanReport bad = lister.update(Set.of(UID));
        Files.write(file, MonitorRegionFiles.v1().uuid(GPU).bytes());
        ScanReport fixed = lister.update(Set.of(UID));

        assertThat(bad.ok()).isTrue();
        assertThat(bad.problems()).containsOnlyKeys(UID + "_worker");
        assertThat(bad.problems().get(UID + "_worker")).contains(message);
        assertThat(fixed.added()).containsExactly(UID + "_worker");
        assertThat(fixed.problems()).isEmpty();
    }

    @Test
    void tooManyCacheFilesIsReported() throws IOException {
        Path dir = Files.createDirectories(containers.resolve(UID + "_worker"));
        for (String name : new String[] {"a.cache", "b.cache", "c.cache"}) {
            Files.writeString(dir.resolve(name), "x");
        }

        assertThat(lister.update(Set.of(UID)).problems().get(UID + "_worker")).contains("cache num not matched");
    }

    @Test
    void anUnknownPodsDirectoryIsKeptDuringTheGracePeriodThenDeleted() throws IOException {
        Path file = MonitorRegionFiles.v1().uuid(GPU).writeTo(containers, UID, "worker");
        Path dir = file.getParent();

        ScanReport fresh = lister.update(Set.of());
        clock.advance(RESYNC.plusSeconds(1));
        ScanReport stale = lister.update(Set.of());

        assertThat(fresh.added()).isEmpty();
        assertThat(fresh.deleted()).isEmpty();
        assertThat(stale.deleted()).containsExactly(UID + "_worker");
        assertThat(dir).doesNotExist();
        assertThat(lister.containers()).isEmpty();
    }

    @Test
    void aTrackedRegionIsForgottenAndDeletedWhenItsPodLeavesTheNode() throws IOException {
        Path file = MonitorRegionFiles.v1().uuid(GPU).writeTo(containers, UID, "worker");
        lister.update(Set.of(UID));
        Files.setLastModifiedTime(file.getParent(), FileTime.from(clock.instant().minus(RESYNC.multipliedBy(2))));

        ScanReport report = lister.update(Set.of("another-pod"));

        assertThat(report.forgotten()).containsExactly(UID + "_worker");
        assertThat(report.deleted()).containsExactly(UID + "_worker");
        assertThat(lister.containers()).isEmpty();
    }

    @Test
    void aVanishedDirectoryIsForgotten() throws IOException {
        Path file = MonitorRegionFiles.v1().uuid(GPU).writeTo(containers, UID, "worker");
        lister.update(Set.of(UID));
        Files.delete(file);
        Files.delete(file.getParent());

        ScanReport report = lister.update(Set.of(UID));

        assertThat(report.forgotten()).containsExactly(UID + "_worker");
        assertThat(lister.containers()).isEmpty();
    }

    @Test
    void aRecreatedDirectoryWithANewRegionFileIsReloaded() throws IOException {
        Path old = MonitorRegionFiles.v1().uuid(GPU).process(1, 0, 0, 0, 0).writeTo(containers, UID, "worker");
        lister.update(Set.of(UID));
        Files.delete(old);
        Path replacement = old.resolveSibling("ffffffff-0000-0000-0000-000000000000.cache");
        Files.write(replacement, MonitorRegionFiles.v1().uuid(GPU).process(777, 0, 0, 0, 0).bytes());

        ScanReport report = lister.update(Set.of(UID));

        assertThat(report.forgotten()).containsExactly(UID + "_worker");
        assertThat(report.added()).containsExactly(UID + "_worker");
        assertThat(lister.containers()).singleElement().satisfies(c -> {
            assertThat(c.file()).isEqualTo(replacement);
            assertThat(c.usage().deviceMemoryTotal(0)).isEqualTo(777);
        });
    }

    @Test
    void theRegionIsReadLiveNotCopied() throws IOException {
        Path file = MonitorRegionFiles.v1().uuid(GPU).recentKernel(2).writeTo(containers, UID, "worker");
        lister.update(Set.of(UID));

        lister.containers().get(0).usage().setRecentKernel(-1);

        assertThat(MonitorRegionFiles.recentKernel(file)).isEqualTo(-1);
    }
}
