package io.vgpu.deviceplugin.core.monitor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Test builders for the pure monitor rules: an in-memory {@link UsageInfo} and pods. */
final class MonitorUsageFixtures {

    private MonitorUsageFixtures() {
    }

    static FakeUsage usage() {
        return new FakeUsage();
    }

    static MonitoredPod pod(String namespace, String name, String... containers) {
        return new MonitoredPod("uid-" + name, namespace, name, "node-a", Map.of(), Map.of(), List.of(),
                List.of(containers));
    }

    /** A 96-byte uuids[] entry holding {@code text} (ISO-8859-1 bytes) and NUL padding. */
    static byte[] uuidBytes(String text) {
        return Arrays.copyOf(text.getBytes(StandardCharsets.ISO_8859_1), 96);
    }

    /**
     * A mutable region stand-in: per-device values by slot, header fields, and the two feedback
     * fields. {@code deviceNum} defaults to the number of UUIDs set.
     */
    static final class FakeUsage implements UsageInfo {
        private final byte[][] uuids = new byte[DEVICE_MAX][96];
        private final long[] total = new long[DEVICE_MAX];
        private final long[] limit = new long[DEVICE_MAX];
        private final long[] context = new long[DEVICE_MAX];
        private final long[] module = new long[DEVICE_MAX];
        private final long[] buffer = new long[DEVICE_MAX];
        private final long[] smUtil = new long[DEVICE_MAX];
        private Integer deviceNum;
        private int uuidCount;
        private long lastKernelTime;
        private int priority = 1;
        private int recentKernel = 2;
        private int utilizationSwitch = 1;

        FakeUsage uuid(int slot, String text) {
            return uuidBytes(slot, MonitorUsageFixtures.uuidBytes(text));
        }

        FakeUsage uuidBytes(int slot, byte[] bytes) {
            uuids[slot] = Arrays.copyOf(bytes, 96);
            uuidCount = Math.max(uuidCount, slot + 1);
            return this;
        }

        FakeUsage deviceNum(int value) {
            deviceNum = value;
            return this;
        }

        FakeUsage memory(int slot, long totalBytes, long contextBytes, long moduleBytes, long bufferBytes) {
            total[slot] = totalBytes;
            context[slot] = contextBytes;
            module[slot] = moduleBytes;
            buffer[slot] = bufferBytes;
            return this;
        }

        FakeUsage limit(int slot, long bytes) {
            limit[slot] = bytes;
            return this;
        }

        FakeUsage smUtil(int slot, long percent) {
            smUtil[slot] = percent;
            return this;
        }

        FakeUsage lastKernelTime(long seconds) {
            lastKernelTime = seconds;
            return this;
        }

        FakeUsage priority(int value) {
            priority = value;
            return this;
        }

        FakeUsage recentKernel(int value) {
            recentKernel = value;
            return this;
        }

        FakeUsage utilizationSwitch(int value) {
            utilizationSwitch = value;
            return this;
        }

        @Override
        public int deviceNum() {
            return deviceNum != null ? deviceNum : uuidCount;
        }

        @Override
        public boolean isValidUuid(int device) {
            return uuids[device][0] != 0;
        }

        @Override
        public byte[] deviceUuidBytes(int device) {
            return uuids[device].clone();
        }

        @Override
        public long deviceMemoryTotal(int device) {
            return total[device];
        }

        @Override
        public long deviceMemoryLimit(int device) {
            return limit[device];
        }

        @Override
        public long deviceMemoryContextSize(int device) {
            return context[device];
        }

        @Override
        public long deviceMemoryModuleSize(int device) {
            return module[device];
        }

        @Override
        public long deviceMemoryBufferSize(int device) {
            return buffer[device];
        }

        @Override
        public long deviceSmUtil(int device) {
            return smUtil[device];
        }

        @Override
        public long lastKernelTime() {
            return lastKernelTime;
        }

        @Override
        public int priority() {
            return priority;
        }

        @Override
        public int recentKernel() {
            return recentKernel;
        }

        @Override
        public int utilizationSwitch() {
            return utilizationSwitch;
        }

        @Override
        public void setRecentKernel(int value) {
            recentKernel = value;
        }

        @Override
        public void setUtilizationSwitch(int value) {
            utilizationSwitch = value;
        }
    }
}
