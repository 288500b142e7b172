package io.vgpu.hamicore;

import static io.vgpu.hamicore.HamiCoreHeaders.DEVICE_MEMORY;
import static io.vgpu.hamicore.HamiCoreHeaders.DEVICE_UTIL;
import static io.vgpu.hamicore.HamiCoreHeaders.MAX_DEVICES;
import static io.vgpu.hamicore.HamiCoreHeaders.MAX_PROCESSES;
import static io.vgpu.hamicore.HamiCoreHeaders.PROC_SLOT;
import static io.vgpu.hamicore.HamiCoreHeaders.UUID_BYTES;

/**
 * The two HAMi-core region layouts this library reads and writes, named as HAMi's Go monitor
 * names its readers: {@link #V0} (no version fields, 1197896-byte struct) and {@link #V1}
 * (major version 1, minor 1 or 2, 2008952-byte struct). Offsets are derived from
 * {@link HamiCoreHeaders}; little-endian, naturally aligned.
 */
public enum RegionLayout {

    /** HAMi-core 7a9c88b..9b46404: no version fields, no last_kernel_time, no seqlock. */
    V0(HamiCoreHeaders.V0, "num"),
    /** HAMi-core 9b46404 onward (file versions 1.1 and 1.2, byte-identical). */
    V1(HamiCoreHeaders.V1_2, "device_num");

    final int initializedFlag;
    /** -1 when the layout has no version fields. */
    final int majorVersion;
    final int minorVersion;
    final int smInitFlag;
    final int ownerPid;
    final int sem;
    final int deviceNum;
    final int uuids;
    final int limit;
    final int smLimit;
    final int procs;
    final int procNum;
    final int utilizationSwitch;
    final int recentKernel;
    final int priority;
    /** -1 in V0. */
    final int lastKernelTime;
    /** -1 in V0. */
    final int semPostInit;
    final int structSize;

    final int slotSize;
    final int slotPid;
    final int slotHostPid;
    final int slotUsed;
    final int slotMonitorUsed;
    final int slotDeviceUtil;
    final int slotStatus;
    /** -1 in V0. */
    final int slotSeqlock;

    final int memoryStride;
    final int memContext;
    final int memModule;
    final int memData;
    final int memOffset;
    final int memTotal;
    final int utilStride;
    final int utilDec;
    final int utilEnc;
    final int utilSm;

    private final HamiCoreHeaders.Definition definition;

    RegionLayout(HamiCoreHeaders.Definition d, String deviceNumField) {
        this.definition = d;
        CStruct r = d.region();
        initializedFlag = r.offsetOf("initialized_flag");
        majorVersion = r.has("major_version") ? r.offsetOf("major_version") : -1;
        minorVersion = r.has("minor_version") ? r.offsetOf("minor_version") : -1;
        smInitFlag = r.offsetOf("sm_init_flag");
        ownerPid = r.offsetOf("owner_pid");
        sem = r.offsetOf("sem");
        deviceNum = r.offsetOf(deviceNumField);
        uuids = r.offsetOf("uuids");
        limit = r.offsetOf("limit");
        smLimit = r.offsetOf("sm_limit");
        procs = r.offsetOf("procs");
        procNum = r.offsetOf("proc_num");
        utilizationSwitch = r.offsetOf("utilization_switch");
        recentKernel = r.offsetOf("recent_kernel");
        priority = r.offsetOf("priority");
        lastKernelTime = r.has("last_kernel_time") ? r.offsetOf("last_kernel_time") : -1;
        semPostInit = r.has("sem_postinit") ? r.offsetOf("sem_postinit") : -1;
        structSize = r.sizeof();

        CStruct slot = d.struct(PROC_SLOT);
        slotSize = slot.sizeof();
        slotPid = slot.offsetOf("pid");
        slotHostPid = slot.offsetOf("hostpid");
        slotUsed = slot.offsetOf("used");
        slotMonitorUsed = slot.offsetOf("monitorused");
        slotDeviceUtil = slot.offsetOf("device_util");
        slotStatus = slot.offsetOf("status");
        slotSeqlock = slot.has("seqlock") ? slot.offsetOf("seqlock") : -1;

        CStruct memory = d.struct(DEVICE_MEMORY);
        memoryStride = memory.sizeof();
        memContext = memory.offsetOf("context_size");
        memModule = memory.offsetOf("module_size");
        memData = memory.offsetOf("data_size");
        memOffset = memory.offsetOf("offset");
        memTotal = memory.offsetOf("total");

        CStruct util = d.struct(DEVICE_UTIL);
        utilStride = util.sizeof();
        utilDec = util.offsetOf("dec_util");
        utilEnc = util.offsetOf("enc_util");
        utilSm = util.offsetOf("sm_util");
    }

    /** sizeof(shared_region_t): the bytes that are mapped and read. */
    public int structSize() {
        return structSize;
    }

    /** Size of a file libvgpu creates: struct plus one NUL byte. */
    public int fileSize() {
        return definition.fileSize();
    }

    /** Whether bytes 4..11 hold major/minor versions (V1) rather than sm_init_flag/owner_pid (V0). */
    public boolean hasVersionFields() {
        return majorVersion >= 0;
    }

    HamiCoreHeaders.Definition definition() {
        return definition;
    }

    int uuidOffset(int device) {
        return uuids + UUID_BYTES * checkDevice(device);
    }

    int limitOffset(int device) {
        return limit + 8 * checkDevice(device);
    }

    int smLimitOffset(int device) {
        return smLimit + 8 * checkDevice(device);
    }

    int slotOffset(int slot) {
        if (slot < 0 || slot >= MAX_PROCESSES) {
            throw new IndexOutOfBoundsException("process slot " + slot + " outside 0.." + (MAX_PROCESSES - 1));
        }
        return procs + slotSize * slot;
    }

    /** Start of {@code procs[slot].used[device]} (a device_memory_t). */
    int memoryOffset(int slot, int device) {
        return slotOffset(slot) + slotUsed + memoryStride * checkDevice(device);
    }

    int monitorUsedOffset(int slot, int device) {
        return slotOffset(slot) + slotMonitorUsed + 8 * checkDevice(device);
    }

    /** Start of {@code procs[slot].device_util[device]} (a device_util_t). */
    int utilOffset(int slot, int device) {
        return slotOffset(slot) + slotDeviceUtil + utilStride * checkDevice(device);
    }

    static int checkDevice(int device) {
        if (device < 0 || device >= MAX_DEVICES) {
            throw new IndexOutOfBoundsException("device " + device + " outside 0.." + (MAX_DEVICES - 1));
        }
        return device;
    }
}
