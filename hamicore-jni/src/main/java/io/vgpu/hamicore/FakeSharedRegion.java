package io.vgpu.hamicore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds in-memory {@link SharedRegion}s for tests of the monitor and device plugin: the same
 * byte layout and accessors as a mapped file, without a file. Starts from what libvgpu's creator
 * writes (magic, version 1.2 for v1, {@code sm_limit} 100, {@code utilization_switch} 1,
 * {@code recent_kernel} 2, {@code priority} 1); {@code device_num} is the number of UUIDs set
 * unless given. Semaphores are not initialised.
 *
 * <pre>
 *   SharedRegion r = FakeSharedRegion.v1()
 *       .uuid(0, "GPU-12345678-1234-1234-1234-123456789012")
 *       .memoryLimit(0, 10_000)
 *       .process(101, 1, Map.of(0, new DeviceMemory(1000, 500, 300, 0, 8000)), Map.of(0, 42L))
 *       .lastKernelTime(100)
 *       .build();
 * </pre>
 */
public final class FakeSharedRegion {

    private FakeSharedRegion() {
    }

    /** A builder for a v1 (current) region. */
    public static Builder v1() {
        return new Builder(RegionLayout.V1);
    }

    /** A builder for a region of {@code layout}. */
    public static Builder builder(RegionLayout layout) {
        return new Builder(layout);
    }

    /** Accumulates region contents; {@link #build()} writes them into a fresh region. */
    public static final class Builder {
        private final RegionLayout layout;
        private final Map<Integer, String> uuids = new TreeMap<>();
        private final Map<Integer, Long> memoryLimits = new TreeMap<>();
        private final Map<Integer, Long> smLimits = new TreeMap<>();
        private final List<Process> processes = new ArrayList<>();
        private Long deviceNum;
        private Integer procNum;
        private int priority = 1;
        private int recentKernel = 2;
        private int utilizationSwitch = 1;
        private long lastKernelTime;

        private Builder(RegionLayout layout) {
            this.layout = layout;
        }

        public Builder uuid(int device, String uuid) {
            RegionLayout.checkDevice(device);
            uuids.put(device, uuid);
            return this;
        }

        /** Overrides {@code device_num} (unsigned; any value, to test clamping). */
        public Builder deviceNum(long value) {
            deviceNum = value;
            return this;
        }

        public Builder memoryLimit(int device, long bytes) {
            RegionLayout.checkDevice(device);
            memoryLimits.put(device, bytes);
            return this;
        }

        public Builder smLimit(int device, long percent) {
            RegionLayout.checkDevice(device);
            smLimits.put(device, percent);
            return this;
        }

        public Builder priority(int value) {
            priority = value;
            return this;
        }

        public Builder recentKernel(int value) {
            recentKernel = value;
            return this;
        }

        public Builder utilizationSwitch(int value) {
            utilizationSwitch = value;
            return this;
        }

        /** Unix seconds; ignored for v0, which has no such field. */
        public Builder lastKernelTime(long seconds) {
            lastKernelTime = seconds;
            return this;
        }

        /** Overrides {@code proc_num} (default: the number of processes added; any value, to test clamping). */
        public Builder procNum(int value) {
            procNum = value;
            return this;
        }

        /**
         * Appends a process slot.
         *
         * @param pid    container PID (host PID is set to the same value)
         * @param status 1 running, 2 suspended, 0 exited
         * @param used   memory per device index
         * @param smUtil SM utilisation per device index
         */
        public Builder process(int pid, int status, Map<Integer, DeviceMemory> used, Map<Integer, Long> smUtil) {
            if (processes.size() >= SharedRegion.MAX_PROCESSES) {
                throw new IllegalStateException("at most " + SharedRegion.MAX_PROCESSES + " processes");
            }
            processes.add(new Process(pid, status, Map.copyOf(used), Map.copyOf(smUtil)));
            return this;
        }

        public SharedRegion build() {
            MappedSharedRegion region = (MappedSharedRegion) SharedRegions.inMemory(layout);
            if (layout.hasVersionFields()) {
                region.putI32(layout.majorVersion, 1);
                region.putI32(layout.minorVersion, 2);
            }
            region.putI64(layout.deviceNum, deviceNum != null ? deviceNum : uuids.size());
            uuids.forEach((d, uuid) -> region.putBytes(layout.uuidOffset(d), uuidBytes(uuid)));
            for (int d = 0; d < SharedRegion.MAX_DEVICES; d++) {
                region.putI64(layout.limitOffset(d), memoryLimits.getOrDefault(d, 0L));
                region.putI64(layout.smLimitOffset(d), smLimits.getOrDefault(d, 100L));
            }
            for (int slot = 0; slot < processes.size(); slot++) {
                writeProcess(region, slot, processes.get(slot));
            }
            region.putI32(layout.procNum, procNum != null ? procNum : processes.size());
            region.putI32(layout.utilizationSwitch, utilizationSwitch);
            region.putI32(layout.recentKernel, recentKernel);
            region.putI32(layout.priority, priority);
            if (layout.lastKernelTime >= 0) {
                region.putI64(layout.lastKernelTime, lastKernelTime);
            }
            region.putI32(layout.initializedFlag, SharedRegion.MAGIC);
            return region;
        }

        private void writeProcess(MappedSharedRegion region, int slot, Process p) {
            int base = layout.slotOffset(slot);
            region.putI32(base + layout.slotPid, p.pid());
            region.putI32(base + layout.slotHostPid, p.pid());
            region.putI32(base + layout.slotStatus, p.status());
            p.used().forEach((d, m) -> {
                int at = layout.memoryOffset(slot, d);
                region.putI64(at + layout.memContext, m.contextSize());
                region.putI64(at + layout.memModule, m.moduleSize());
                region.putI64(at + layout.memData, m.dataSize());
                region.putI64(at + layout.memOffset, m.offset());
                region.putI64(at + layout.memTotal, m.total());
            });
            p.smUtil().forEach((d, util) -> region.putI64(layout.utilOffset(slot, d) + layout.utilSm, util));
        }

        private static byte[] uuidBytes(String uuid) {
            byte[] bytes = uuid.getBytes(StandardCharsets.UTF_8);
            if (bytes.length >= SharedRegion.UUID_BYTES) {
                throw new IllegalArgumentException("a UUID holds at most 95 bytes plus NUL: " + uuid);
            }
            return bytes;
        }
    }

    private record Process(int pid, int status, Map<Integer, DeviceMemory> used, Map<Integer, Long> smUtil) {
    }
}
