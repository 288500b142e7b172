package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The libvgpu-compatible creator and the region semaphores (tools and tests only). */
class RegionSemaphoreTest {

    @TempDir
    Path dir;

    @Test
    void createWritesWhatLibvgpuWrites() throws IOException {
        Path file = dir.resolve("c.cache");
        SharedRegion region = SharedRegions.create(file, new RegionInit(List.of(4L << 30), List.of(0L, 30L), 0));
        assertThat(Files.size(file)).isEqualTo(2008953);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-rw-rw-");
        assertThat(region.isInitialized()).isTrue();
        assertThat(region.majorVersion()).hasValue(1);
        assertThat(region.minorVersion()).hasValue(2);
        assertThat(region.deviceMemoryLimit(0)).isEqualTo(4L << 30);
        assertThat(region.deviceMemoryLimit(1)).isZero();
        assertThat(region.deviceSmLimit(0)).as("0 becomes 100").isEqualTo(100);
        assertThat(region.deviceSmLimit(1)).isEqualTo(30);
        assertThat(region.deviceSmLimit(15)).isEqualTo(100);
        assertThat(region.utilizationSwitch()).isEqualTo(1);
        assertThat(region.recentKernel()).isEqualTo(2);
        assertThat(region.priority()).isZero();
        assertThat(region.procNum()).isZero();
        assertThat(region.deviceNum()).as("written by NVML init, not by the creator").isZero();
        assertThat(region.lastKernelTime()).isBetween(Instant.now().getEpochSecond() - 5, Instant.now().getEpochSecond());
        byte[] bytes = Files.readAllBytes(file);
        assertThat(HexFormat.of().formatHex(bytes, 24, 36)).isEqualTo("010000000000000080000000");
        assertThat(HexFormat.of().formatHex(bytes, 2008920, 2008932)).isEqualTo("010000000000000080000000");
        assertThat(SharedRegions.openFile(file)).isInstanceOf(RegionLoad.Loaded.class);
    }

    @Test
    void joiningAnInitialisedRegionKeepsItsValues() throws IOException {
        Path file = dir.resolve("c.cache");
        SharedRegion first = SharedRegions.create(file, new RegionInit(List.of(), List.of(), 5));
        first.setRecentKernel(-1);
        SharedRegion second = SharedRegions.create(file, new RegionInit(List.of(1L), List.of(10L), 9));
        assertThat(second.priority()).isEqualTo(5);
        assertThat(second.recentKernel()).isEqualTo(-1);
        assertThat(second.deviceMemoryLimit(0)).isZero();
        assertThat(Files.size(file)).isEqualTo(2008953);
    }

    @Test
    void regionLockRecordsTheOwnerAndTimesOutWhenHeld() throws IOException {
        SharedRegion region = SharedRegions.create(dir.resolve("c.cache"), RegionInit.defaults());
        RegionSemaphore lock = RegionSemaphore.regionLock(region);
        assertThat(lock.value()).isEqualTo(1);
        assertThat(lock.tryAcquire(Duration.ofSeconds(1))).isTrue();
        assertThat(region.ownerPid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(lock.value()).isZero();

        long start = System.nanoTime();
        assertThat(lock.tryAcquire(Duration.ofMillis(100))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(90));
        assertThat(lock.tryAcquire(Duration.ZERO)).isFalse();

        lock.release();
        assertThat(region.ownerPid()).isZero();
        assertThat(lock.value()).isEqualTo(1);
    }

    @Test
    void postInitLockIsSeparateAndKeepsNoOwner() throws IOException {
        SharedRegion region = SharedRegions.create(dir.resolve("c.cache"), RegionInit.defaults());
        RegionSemaphore postInit = RegionSemaphore.postInitLock(region);
        assertThat(postInit.tryAcquire(Duration.ZERO)).isTrue();
        assertThat(region.ownerPid()).isZero();
        assertThat(RegionSemaphore.regionLock(region).value()).isEqualTo(1);
        postInit.release();
        assertThat(postInit.value()).isEqualTo(1);
    }

    @Test
    void aZeroedSemaphoreIsHeldNotBroken() {
        // a v1.1 file never had sem_postinit initialised: all zero bytes is a semaphore at value 0
        SharedRegion region = SharedRegions.inMemory(RegionLayout.V1);
        assertThat(RegionSemaphore.postInitLock(region).tryAcquire(Duration.ofMillis(10))).isFalse();
    }

    @Test
    void v0HasNoPostInitSemaphore() {
        SharedRegion v0 = SharedRegions.inMemory(RegionLayout.V0);
        assertThatThrownBy(() -> RegionSemaphore.postInitLock(v0)).isInstanceOf(IllegalArgumentException.class);
    }
}
