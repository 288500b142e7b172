package io.vgpu.hamicore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntUnaryOperator;

/**
 * {@link SharedRegion} over a direct (usually file-mapped) buffer. Every 32/64-bit field is read
 * with a volatile load and written with a volatile store through little-endian
 * {@link VarHandle} views: the same sequentially consistent atomics as Go's {@code sync/atomic}
 * and libvgpu's C11 {@code _Atomic} accesses.
 */
final class MappedSharedRegion implements SharedRegion {

    private static final VarHandle I32 = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Seqlock retries before giving up on a writer that never finishes (it may have died). */
    private static final int SEQLOCK_ATTEMPTS = 16;

    private final ByteBuffer buffer;
    private final RegionLayout layout;
    private final Path file;

    MappedSharedRegion(ByteBuffer buffer, RegionLayout layout, Path file) {
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.file = file;
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("the region must be a direct buffer (atomic access and sem_t need it)");
        }
        if (buffer.capacity() < layout.structSize()) {
            throw new IllegalArgumentException("buffer of " + buffer.capacity() + " bytes is smaller than the "
                    + layout + " region (" + layout.structSize() + " bytes)");
        }
    }

    ByteBuffer buffer() {
        return buffer;
    }

    int i32(int offset) {
        return (int) I32.getVolatile(buffer, offset);
    }

    long i64(int offset) {
        return (long) I64.getVolatile(buffer, offset);
    }

    void putI32(int offset, int value) {
        I32.setVolatile(buffer, offset, value);
    }

    void putI64(int offset, long value) {
        I64.setVolatile(buffer, offset, value);
    }

    void putBytes(int offset, byte[] bytes) {
        buffer.put(offset, bytes);
    }

    @Override
    public RegionLayout layout() {
        return layout;
    }

    @Override
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    @Override
    public int initializedFlag() {
        return i32(layout.initializedFlag);
    }

    @Override
    public OptionalInt majorVersion() {
        return layout.hasVersionFields() ? OptionalInt.of(i32(layout.majorVersion)) : OptionalInt.empty();
    }

    @Override
    public OptionalInt minorVersion() {
        return layout.hasVersionFields() ? OptionalInt.of(i32(layout.minorVersion)) : OptionalInt.empty();
    }

    @Override
    public int smInitFlag() {
        return i32(layout.smInitFlag);
    }

    @Override
    public long ownerPid() {
        return i64(layout.ownerPid);
    }

    @Override
    public int deviceNum() {
        long raw = rawDeviceNum();
        return Long.compareUnsigned(raw, MAX_DEVICES) > 0 ? MAX_DEVICES : (int) raw;
    }

    @Override
    public long rawDeviceNum() {
        return i64(layout.deviceNum);
    }

    @Override
    public boolean isValidUuid(int device) {
        return buffer.get(layout.uuidOffset(device)) != 0;
    }

    @Override
    public byte[] deviceUuidBytes(int device) {
        byte[] out = new byte[UUID_BYTES];
        buffer.get(layout.uuidOffset(device), out);
        return out;
    }

    @Override
    public String deviceUuid(int device) {
        byte[] raw = deviceUuidBytes(device);
        int end = 0;
        while (end < raw.length && raw[end] != 0) {
            end++;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(raw, 0, end))
                    .toString();
        } catch (CharacterCodingException impossibleWithReplace) {
            throw new IllegalStateException(impossibleWithReplace);
        }
    }

    @Override
    public long deviceMemoryLimit(int device) {
        return i64(layout.limitOffset(device));
    }

    @Override
    public long deviceSmLimit(int device) {
        return i64(layout.smLimitOffset(device));
    }

    @Override
    public long deviceMemoryContextSize(int device) {
        return sumLive(device, slot -> layout.memoryOffset(slot, device) + layout.memContext);
    }

    @Override
    public long deviceMemoryModuleSize(int device) {
        return sumLive(device, slot -> layout.memoryOffset(slot, device) + layout.memModule);
    }

    @Override
    public long deviceMemoryBufferSize(int device) {
        return sumLive(device, slot -> layout.memoryOffset(slot, device) + layout.memData);
    }

    @Override
    public long deviceMemoryOffset(int device) {
        return sumLive(device, slot -> layout.memoryOffset(slot, device) + layout.memOffset);
    }

    @Override
    public long deviceMemoryTotal(int device) {
        return sumLive(device, slot -> layout.memoryOffset(slot, device) + layout.memTotal);
    }

    @Override
    public long deviceSmUtil(int device) {
        return sumLive(device, slot -> layout.utilOffset(slot, device) + layout.utilSm);
    }

    /** Σ of the 64-bit field at fieldOffset(slot) over live slots; wraps like Go's uint64. */
    private long sumLive(int device, IntUnaryOperator fieldOffset) {
        RegionLayout.checkDevice(device);
        int slots = slotCount();
        long sum = 0;
        for (int slot = 0; slot < slots; slot++) {
            if (i32(layout.slotOffset(slot) + layout.slotStatus) != 0) {
                sum += i64(fieldOffset.applyAsInt(slot));
            }
        }
        return sum;
    }

    /** proc_num clamped to 0..1024, as HAMi's reader does for corrupt values. */
    int slotCount() {
        return Math.max(0, Math.min(MAX_PROCESSES, procNum()));
    }

    @Override
    public int procNum() {
        return i32(layout.procNum);
    }

    @Override
    public List<ProcessSlot> processes() {
        int slots = slotCount();
        List<ProcessSlot> out = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            out.add(readSlot(slot));
        }
        return List.copyOf(out);
    }

    private ProcessSlot readSlot(int slot) {
        int base = layout.slotOffset(slot);
        if (layout.slotSeqlock < 0) {
            return readSlotOnce(slot, base, 0);
        }
        ProcessSlot read = null;
        for (int attempt = 0; attempt < SEQLOCK_ATTEMPTS; attempt++) {
            long before = i64(base + layout.slotSeqlock);
            read = readSlotOnce(slot, base, before);
            long after = i64(base + layout.slotSeqlock);
            if ((before & 1) == 0 && before == after) {
                return read;
            }
            Thread.onSpinWait();
        }
        return read;
    }

    private ProcessSlot readSlotOnce(int slot, int base, long seqlock) {
        List<DeviceMemory> used = new ArrayList<>(MAX_DEVICES);
        List<Long> monitorUsed = new ArrayList<>(MAX_DEVICES);
        List<DeviceUtil> util = new ArrayList<>(MAX_DEVICES);
        for (int d = 0; d < MAX_DEVICES; d++) {
            int m = layout.memoryOffset(slot, d);
            used.add(new DeviceMemory(i64(m + layout.memContext), i64(m + layout.memModule), i64(m + layout.memData),
                    i64(m + layout.memOffset), i64(m + layout.memTotal)));
            monitorUsed.add(i64(layout.monitorUsedOffset(slot, d)));
            int u = layout.utilOffset(slot, d);
            util.add(new DeviceUtil(i64(u + layout.utilDec), i64(u + layout.utilEnc), i64(u + layout.utilSm)));
        }
        return new ProcessSlot(slot, i32(base + layout.slotPid), i32(base + layout.slotHostPid),
                i32(base + layout.slotStatus), seqlock, used, monitorUsed, util);
    }

    @Override
    public int utilizationSwitch() {
        return i32(layout.utilizationSwitch);
    }

    @Override
    public int recentKernel() {
        return i32(layout.recentKernel);
    }

    @Override
    public int priority() {
        return i32(layout.priority);
    }

    @Override
    public long lastKernelTime() {
        return layout.lastKernelTime < 0 ? 0 : i64(layout.lastKernelTime);
    }

    @Override
    public void setRecentKernel(int value) {
        putI32(layout.recentKernel, value);
    }

    @Override
    public void setUtilizationSwitch(int value) {
        putI32(layout.utilizationSwitch, value);
    }

    @Override
    public void setDeviceSmLimit(long value) {
        int devices = deviceNum();
        for (int d = 0; d < devices; d++) {
            putI64(layout.smLimitOffset(d), value);
        }
    }

    @Override
    public void setDeviceMemoryLimit(long value) {
        int devices = deviceNum();
        for (int d = 0; d < devices; d++) {
            putI64(layout.limitOffset(d), value);
        }
    }

    @Override
    public String toString() {
        return "SharedRegion[" + layout + (file == null ? ", in memory" : ", " + file) + "]";
    }
}
