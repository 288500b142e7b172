package io.vgpu.hamicore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Region accessors beyond the vectors: snapshots, seqlock, UUID decoding, bounds, shared mappings. */
class SharedRegionTest {

    private static final String UUID0 = "GPU-12345678-1234-1234-1234-123456789012";
    private static final String UUID1 = "GPU-abcdefab-cdef-abcd-efab-cdefabcdefab";

    @TempDir
    Path dir;

    private static SharedRegion twoProcessesOnTwoDevices() {
        return FakeSharedRegion.v1()
                .uuid(0, UUID0)
                .uuid(1, UUID1)
                .memoryLimit(0, 10_000)
                .smLimit(1, 30)
                .priority(3)
                .lastKernelTime(1234)
                .process(101, 1, Map.of(0, new DeviceMemory(1000, 500, 300, 0, 8000)), Map.of(0, 42L))
                .process(102, 2, Map.of(1, new DeviceMemory(10, 0, 20, 0, 30)), Map.of(1, 7L))
                .process(103, 0, Map.of(0, new DeviceMemory(1, 1, 1, 1, 999)), Map.of(0, 99L))
                .build();
    }

    @Test
    void fakeRegionStartsFromWhatLibvgpusCreatorWrites() {
        SharedRegion region = FakeSharedRegion.v1().build();
        assertThat(region.isInitialized()).isTrue();
        assertThat(region.majorVersion()).hasValue(1);
        assertThat(region.minorVersion()).hasValue(2);
        assertThat(region.utilizationSwitch()).isEqualTo(1);
        assertThat(region.recentKernel()).isEqualTo(2);
        assertThat(region.priority()).isEqualTo(1);
        assertThat(region.deviceSmLimit(15)).isEqualTo(100);
        assertThat(region.deviceNum()).isZero();
        assertThat(region.file()).isEmpty();
    }

    @Test
    void sumsSkipExitedSlotsButSnapshotsShowThem() {
        SharedRegion region = twoProcessesOnTwoDevices();
        assertThat(region.deviceNum()).isEqualTo(2);
        assertThat(region.deviceMemoryTotal(0)).isEqualTo(8000);
        assertThat(region.deviceMemoryContextSize(0)).isEqualTo(1000);
        assertThat(region.deviceMemoryModuleSize(0)).isEqualTo(500);
        assertThat(region.deviceMemoryBufferSize(0)).isEqualTo(300);
        assertThat(region.deviceSmUtil(0)).isEqualTo(42);
        // status 2 (suspended) still counts
        assertThat(region.deviceMemoryTotal(1)).isEqualTo(30);
        assertThat(region.processes()).extracting(ProcessSlot::pid).containsExactly(101, 102, 103);
        ProcessSlot exited = region.processes().get(2);
        assertThat(exited.exited()).isTrue();
        assertThat(exited.used().get(0).total()).isEqualTo(999);
        assertThat(exited.deviceUtil().get(0).smUtil()).isEqualTo(99);
        assertThat(exited.used()).hasSize(SharedRegion.MAX_DEVICES);
    }

    @Test
    void readsEveryScalarField() {
        SharedRegion region = twoProcessesOnTwoDevices();
        assertThat(region.deviceMemoryLimit(0)).isEqualTo(10_000);
        assertThat(region.deviceSmLimit(1)).isEqualTo(30);
        assertThat(region.priority()).isEqualTo(3);
        assertThat(region.lastKernelTime()).isEqualTo(1234);
        assertThat(region.procNum()).isEqualTo(3);
        assertThat(region.ownerPid()).isZero();
        assertThat(region.smInitFlag()).isZero();
        assertThat(region.deviceUuid(1)).isEqualTo(UUID1);
        assertThat(region.isValidUuid(1)).isTrue();
        assertThat(region.isValidUuid(2)).isFalse();
    }

    @Test
    void uuidBytesKeepAll96BytesAndTheStringStopsAtNul() {
        SharedRegion region = FakeSharedRegion.v1().uuid(0, UUID0).build();
        byte[] raw = region.deviceUuidBytes(0);
        assertThat(raw).hasSize(96);
        assertThat(raw[40]).isZero();
        assertThat(region.deviceUuid(0)).isEqualTo(UUID0);
    }

    @Test
    void invalidUtf8InAUuidIsReplacedNotThrown() throws IOException {
        MappedSharedRegion region = (MappedSharedRegion) SharedRegions.inMemory(RegionLayout.V1);
        region.putBytes(RegionLayout.V1.uuidOffset(0), new byte[] {(byte) 0xff, 'a', 'b'});
        assertThat(region.deviceUuid(0)).isEqualTo("\uFFFDab");
        assertThat(region.isValidUuid(0)).isTrue();
    }

    @ParameterizedTest(name = "device {0}")
    @ValueSource(ints = {-1, 16, 1000})
    void deviceIndicesOutside0To15AreRejected(int device) {
        SharedRegion region = FakeSharedRegion.v1().build();
        assertThatThrownBy(() -> region.deviceMemoryTotal(device)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> region.deviceUuid(device)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> region.deviceMemoryLimit(device)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void countersAreUnsigned64BitAndWrapLikeGo() {
        SharedRegion region = FakeSharedRegion.v1()
                .process(1, 1, Map.of(0, new DeviceMemory(0, 0, 0, 0, -1L)), Map.of())
                .process(2, 1, Map.of(0, new DeviceMemory(0, 0, 0, 0, 2)), Map.of())
                .deviceNum(0x8000_0000_0000_0001L)
                .build();
        assertThat(Long.toUnsignedString(region.deviceMemoryTotal(0))).isEqualTo("1");
        assertThat(region.deviceNum()).isEqualTo(16);
        assertThat(Long.toUnsignedString(region.rawDeviceNum())).isEqualTo("9223372036854775809");
    }

    @Test
    void aSlotStuckMidUpdateDoesNotHangTheSnapshot() {
        MappedSharedRegion region = (MappedSharedRegion) FakeSharedRegion.v1()
                .process(7, 1, Map.of(0, new DeviceMemory(0, 0, 5, 0, 5)), Map.of())
                .build();
        // a writer died between its two seqlock increments: the count stays odd forever
        region.putI64(RegionLayout.V1.slotOffset(0) + RegionLayout.V1.slotSeqlock, 3);
        ProcessSlot slot = region.processes().get(0);
        assertThat(slot.seqlock()).isEqualTo(3);
        assertThat(slot.used().get(0).total()).isEqualTo(5);
    }

    @Test
    void v0RegionsHaveNoVersionsNoLastKernelTimeAndNoSeqlock() {
        SharedRegion region = FakeSharedRegion.builder(RegionLayout.V0)
                .uuid(0, UUID0)
                .lastKernelTime(99)
                .process(5, 1, Map.of(0, new DeviceMemory(1, 2, 3, 4, 10)), Map.of(0, 6L))
                .build();
        assertThat(region.majorVersion()).isEmpty();
        assertThat(region.lastKernelTime()).isZero();
        assertThat(region.deviceMemoryOffset(0)).isEqualTo(4);
        assertThat(region.processes().get(0).seqlock()).isZero();
        assertThat(region.deviceUuid(0)).isEqualTo(UUID0);
    }

    @Test
    void limitSettersWriteOnlyTheDevicesInUse() {
        SharedRegion region = FakeSharedRegion.v1().uuid(0, UUID0).uuid(1, UUID1).build();
        region.setDeviceMemoryLimit(2048);
        region.setDeviceSmLimit(50);
        assertThat(region.deviceMemoryLimit(1)).isEqualTo(2048);
        assertThat(region.deviceMemoryLimit(2)).isZero();
        assertThat(region.deviceSmLimit(1)).isEqualTo(50);
        assertThat(region.deviceSmLimit(2)).isEqualTo(100);
    }

    @Test
    void feedbackWritesReachEveryMappingOfTheFile() throws IOException {
        Path file = RegionFixtures.v1(dir, "shared.cache");
        SharedRegion monitor = SharedRegions.openFile(file).loadedRegion().orElseThrow();
        SharedRegion container = SharedRegions.mapAs(file, RegionLayout.V1).loadedRegion().orElseThrow();
        monitor.setRecentKernel(-1);
        monitor.setUtilizationSwitch(0);
        assertThat(container.recentKernel()).isEqualTo(-1);
        assertThat(container.utilizationSwitch()).isZero();
    }

    @Test
    void wrapRejectsHeapAndShortBuffers() {
        assertThatThrownBy(() -> SharedRegions.wrap(ByteBuffer.allocate(RegionLayout.V1.structSize()), RegionLayout.V1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SharedRegions.wrap(ByteBuffer.allocateDirect(64), RegionLayout.V1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
