package io.vgpu.deviceplugin.monitor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes HAMi-core v1.2 region files byte by byte, as libvgpu lays them out (offsets from
 * {@code ../shared/conformance/hamicore-layout.json}, x86_64), for tests that exercise the real
 * file path: directory scan, mmap, accessors. Public for the agent's wiring test.
 */
public final class MonitorRegionFiles {

    static final int MAGIC = 19920718;
    static final int STRUCT_SIZE = 2008952;
    /** libvgpu writes one byte past the struct. */
    static final int FILE_SIZE = STRUCT_SIZE + 1;

    private static final int DEVICE_NUM = 56;
    private static final int UUIDS = 64;
    private static final int LIMIT = 1600;
    private static final int SM_LIMIT = 1728;
    private static final int PROCS = 1856;
    private static final int SLOT = 1960;
    private static final int PROC_NUM = 2008896;
    private static final int UTILIZATION_SWITCH = 2008900;
    private static final int RECENT_KERNEL = 2008904;
    private static final int PRIORITY = 2008908;
    private static final int LAST_KERNEL_TIME = 2008912;

    private MonitorRegionFiles() {
    }

    public static Builder v1() {
        return new Builder();
    }

    /** Region contents; defaults are what libvgpu's creator writes. */
    public static final class Builder {
        private final List<String> uuids = new ArrayList<>();
        private final long[] limits = new long[16];
        private final List<long[]> processes = new ArrayList<>();
        private int magic = MAGIC;
        private int major = 1;
        private int minor = 2;
        private int priority = 1;
        private int recentKernel = 2;
        private int utilizationSwitch = 1;
        private long lastKernelTime;
        private int size = FILE_SIZE;

        public Builder uuid(String uuid) {
            uuids.add(uuid);
            return this;
        }

        public Builder limit(int device, long bytes) {
            limits[device] = bytes;
            return this;
        }

        /** A live process using device 0: total, context, module, data bytes and SM percent. */
        public Builder process(long total, long context, long module, long data, long smUtil) {
            processes.add(new long[] {total, context, module, data, smUtil});
            return this;
        }

        Builder priority(int value) {
            priority = value;
            return this;
        }

        Builder recentKernel(int value) {
            recentKernel = value;
            return this;
        }

        Builder utilizationSwitch(int value) {
            utilizationSwitch = value;
            return this;
        }

        public Builder lastKernelTime(long seconds) {
            lastKernelTime = seconds;
            return this;
        }

        Builder magic(int value) {
            magic = value;
            return this;
        }

        Builder version(int majorVersion, int minorVersion) {
            major = majorVersion;
            minor = minorVersion;
            return this;
        }

        Builder fileSize(int bytes) {
            size = bytes;
            return this;
        }

        byte[] bytes() {
            ByteBuffer b = ByteBuffer.allocate(Math.max(size, STRUCT_SIZE)).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0, magic).putInt(4, major).putInt(8, minor);
            b.putLong(DEVICE_NUM, uuids.size());
            for (int d = 0; d < uuids.size(); d++) {
                b.put(UUIDS + 96 * d, uuids.get(d).getBytes(StandardCharsets.US_ASCII));
            }
            for (int d = 0; d < 16; d++) {
                b.putLong(LIMIT + 8 * d, limits[d]);
                b.putLong(SM_LIMIT + 8 * d, 100);
            }
            for (int p = 0; p < processes.size(); p++) {
                long[] v = processes.get(p);
                int slot = PROCS + SLOT * p;
                b.putInt(slot, 100 + p).putInt(slot + 4, 4000 + p).putInt(slot + 1928, 1);
                b.putLong(slot + 8, v[1]).putLong(slot + 16, v[2]).putLong(slot + 24, v[3]).putLong(slot + 40, v[0]);
                b.putLong(slot + 1176, v[4]);
            }
            b.putInt(PROC_NUM, processes.size());
            b.putInt(UTILIZATION_SWITCH, utilizationSwitch).putInt(RECENT_KERNEL, recentKernel)
                    .putInt(PRIORITY, priority).putLong(LAST_KERNEL_TIME, lastKernelTime);
            byte[] all = b.array();
            return size >= all.length ? all : Arrays.copyOf(all, size);
        }

        /** Writes the region to {@code file} (a DRA claim region: {@code <hook>/vgpu/claims/<uid>/<request>.cache}). */
        public Path writeFile(Path file) throws IOException {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes());
            return file;
        }

        /** Writes {@code <containers>/<uid>_<container>/<name>.cache} and returns the file. */
        public Path writeTo(Path containers, String podUid, String container) throws IOException {
            Path dir = Files.createDirectories(containers.resolve(podUid + "_" + container));
            Path file = dir.resolve("6a1c2f0e-9a5b-4c1e-8f3d-" + Integer.toHexString(container.hashCode()) + ".cache");
            Files.write(file, bytes());
            return file;
        }
    }

    /** Reads an int32 of a region file (to check the monitor's feedback writes). */
    static int readInt(Path file, int offset) throws IOException {
        byte[] all = Files.readAllBytes(file);
        return ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).getInt(offset);
    }

    static int recentKernel(Path file) throws IOException {
        return readInt(file, RECENT_KERNEL);
    }

    static int utilizationSwitch(Path file) throws IOException {
        return readInt(file, UTILIZATION_SWITCH);
    }
}
