package io.vgpu.hamicore;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.vgpu.hamicore.CType.CHAR;
import static io.vgpu.hamicore.CType.INT;
import static io.vgpu.hamicore.CType.INT32;
import static io.vgpu.hamicore.CType.SEM_T;
import static io.vgpu.hamicore.CType.SIZE_T;
import static io.vgpu.hamicore.CType.UINT32;
import static io.vgpu.hamicore.CType.UINT64;

/**
 * The struct declarations of {@code src/multiprocess/multiprocess_memory_limit.h} in every
 * HAMi-core layout era (region spec §1.2 and §1.4), transcribed as C declarations; offsets and
 * sizes follow from {@link CStruct}'s layout rules.
 *
 * <p>Only {@link #V1_2} and {@link #V0} are read ({@link RegionLayout}); v1.1 is byte-identical to
 * v1.2; the interim and pre-v0 layouts exist so that files written by them are recognised and
 * rejected instead of misread.
 */
final class HamiCoreHeaders {

    static final int MAX_DEVICES = 16;
    static final int MAX_PROCESSES = 1024;
    static final int UUID_BYTES = 96;

    static final String DEVICE_MEMORY = "device_memory_t";
    static final String DEVICE_UTIL = "device_util_t";
    static final String PROC_SLOT = "shrreg_proc_slot_t";
    static final String REGION = "shared_region_t";

    /** Current HAMi-core (major 1, minor 2). */
    static final Definition V1_2 = v1x("v1.2", 1, 2, true);
    /** Major 1, minor 1: the v1.2 bytes, with seqlock and sem_postinit still unused. */
    static final Definition V1_1 = v1x("v1.1", 1, 1, false);
    /** HAMi-core 1988c5d..b69b1ea: says 1.1, but seqlock and sem_postinit shift later fields. */
    static final Definition INTERIM = interim();
    /** HAMi-core 7a9c88b..9b46404: no version fields. */
    static final Definition V0 = v0();
    /** The initial HAMi-core layout, without device_util. */
    static final Definition PRE_V0 = preV0();

    static final List<Definition> ALL = List.of(V1_2, V1_1, INTERIM, V0, PRE_V0);

    private HamiCoreHeaders() {
    }

    /**
     * One layout era.
     *
     * @param name    the name used in {@code hamicore-layout.json}
     * @param major   major_version written by that era, null when it had none
     * @param minor   minor_version written by that era, null when it had none
     * @param structs the structs by C name, inner ones first
     */
    record Definition(String name, Integer major, Integer minor, Map<String, CStruct> structs) {
        Definition {
            structs = Collections.unmodifiableMap(new LinkedHashMap<>(structs));
        }

        CStruct struct(String cName) {
            CStruct s = structs.get(cName);
            if (s == null) {
                throw new IllegalArgumentException(name + " has no struct " + cName);
            }
            return s;
        }

        CStruct region() {
            return struct(REGION);
        }

        /** libvgpu writes one NUL at offset sizeof(shared_region_t), so new files are one byte longer. */
        int fileSize() {
            return region().sizeof() + 1;
        }
    }

    private static CStruct deviceMemory(boolean atomic, boolean padded) {
        CType counter = atomic ? UINT64.atomic() : UINT64;
        CStruct.Builder b = CStruct.named(DEVICE_MEMORY)
                .field("context_size", counter)
                .field("module_size", counter)
                .field("data_size", counter)
                .field("offset", counter)
                .field("total", counter);
        return (padded ? b.field("unused", UINT64.array(3)) : b).build();
    }

    private static CStruct deviceUtil(boolean atomic, boolean padded) {
        CType counter = atomic ? UINT64.atomic() : UINT64;
        CStruct.Builder b = CStruct.named(DEVICE_UTIL)
                .field("dec_util", counter)
                .field("enc_util", counter)
                .field("sm_util", counter);
        return (padded ? b.field("unused", UINT64.array(3)) : b).build();
    }

    private static CType uuids() {
        return CHAR.array(UUID_BYTES).array(MAX_DEVICES);
    }

    private static Definition v1x(String name, int major, int minor, boolean current) {
        // v1.2 gave atomics to the counters and reused formerly unused bytes; v1.1 had plain types
        CStruct memory = deviceMemory(true, true);
        CStruct util = deviceUtil(true, true);
        CType i32 = current ? INT32.atomic() : INT32;
        CType u64 = current ? UINT64.atomic() : UINT64;
        CType counter = current ? INT.atomic() : INT;
        CStruct.Builder slot = CStruct.named(PROC_SLOT)
                .field("pid", i32)
                .field("hostpid", i32)
                .field("used", memory.type().array(MAX_DEVICES))
                .field("monitorused", u64.array(MAX_DEVICES))
                .field("device_util", util.type().array(MAX_DEVICES))
                .field("status", i32);
        CStruct procSlot = (current
                ? slot.field("seqlock", UINT64.atomic()).field("unused", UINT64.array(2))
                : slot.field("unused", UINT64.array(3))).build();
        CStruct.Builder region = CStruct.named(REGION)
                .field("initialized_flag", i32)
                .field("major_version", UINT32)
                .field("minor_version", UINT32)
                .field("sm_init_flag", i32)
                .field("owner_pid", current ? SIZE_T.atomic() : SIZE_T)
                .field("sem", SEM_T)
                .field(current ? "device_num" : "num", UINT64)
                .field("uuids", uuids())
                .field("limit", UINT64.array(MAX_DEVICES))
                .field("sm_limit", UINT64.array(MAX_DEVICES))
                .field("procs", procSlot.type().array(MAX_PROCESSES))
                .field("proc_num", counter)
                .field("utilization_switch", counter)
                .field("recent_kernel", counter)
                .field("priority", INT)
                .field("last_kernel_time", u64);
        CStruct shared = (current ? region.field("sem_postinit", SEM_T) : region.field("unused", UINT64.array(4))).build();
        return definition(name, major, minor, memory, util, procSlot, shared);
    }

    private static Definition interim() {
        CStruct memory = deviceMemory(true, true);
        CStruct util = deviceUtil(true, true);
        CStruct procSlot = CStruct.named(PROC_SLOT)
                .field("pid", INT32.atomic())
                .field("hostpid", INT32.atomic())
                .field("seqlock", UINT64.atomic())
                .field("used", memory.type().array(MAX_DEVICES))
                .field("monitorused", UINT64.atomic().array(MAX_DEVICES))
                .field("device_util", util.type().array(MAX_DEVICES))
                .field("status", INT32.atomic())
                .field("unused", UINT64.array(2))
                .build();
        CStruct shared = CStruct.named(REGION)
                .field("initialized_flag", INT32.atomic())
                .field("major_version", UINT32)
                .field("minor_version", UINT32)
                .field("sm_init_flag", INT32.atomic())
                .field("owner_pid", SIZE_T.atomic())
                .field("sem", SEM_T)
                .field("sem_postinit", SEM_T)
                .field("device_num", UINT64)
                .field("uuids", uuids())
                .field("limit", UINT64.array(MAX_DEVICES))
                .field("sm_limit", UINT64.array(MAX_DEVICES))
                .field("procs", procSlot.type().array(MAX_PROCESSES))
                .field("proc_num", INT.atomic())
                .field("utilization_switch", INT.atomic())
                .field("recent_kernel", INT.atomic())
                .field("priority", INT)
                .field("last_kernel_time", UINT64.atomic())
                .field("unused", UINT64.array(4))
                .build();
        return definition("interim-1.1-seqlock", 1, 1, memory, util, procSlot, shared);
    }

    private static Definition v0() {
        CStruct memory = deviceMemory(false, false);
        CStruct util = deviceUtil(false, false);
        CStruct procSlot = CStruct.named(PROC_SLOT)
                .field("pid", INT32)
                .field("hostpid", INT32)
                .field("used", memory.type().array(MAX_DEVICES))
                .field("monitorused", UINT64.array(MAX_DEVICES))
                .field("device_util", util.type().array(MAX_DEVICES))
                .field("status", INT32)
                .build();
        return definition("v0", null, null, memory, util, procSlot, legacyRegion(procSlot));
    }

    private static Definition preV0() {
        CStruct memory = deviceMemory(false, false);
        CStruct procSlot = CStruct.named(PROC_SLOT)
                .field("pid", INT32)
                .field("hostpid", INT32)
                .field("used", memory.type().array(MAX_DEVICES))
                .field("monitorused", UINT64.array(MAX_DEVICES))
                .field("status", INT32)
                .build();
        return definition("pre-v0", null, null, memory, null, procSlot, legacyRegion(procSlot));
    }

    /** The region header before version fields existed (v0 and pre-v0). */
    private static CStruct legacyRegion(CStruct procSlot) {
        return CStruct.named(REGION)
                .field("initialized_flag", INT32)
                .field("sm_init_flag", INT32)
                .field("owner_pid", SIZE_T)
                .field("sem", SEM_T)
                .field("num", UINT64)
                .field("uuids", uuids())
                .field("limit", UINT64.array(MAX_DEVICES))
                .field("sm_limit", UINT64.array(MAX_DEVICES))
                .field("procs", procSlot.type().array(MAX_PROCESSES))
                .field("proc_num", INT)
                .field("utilization_switch", INT)
                .field("recent_kernel", INT)
                .field("priority", INT)
                .build();
    }

    private static Definition definition(String name, Integer major, Integer minor, CStruct memory,
                                         CStruct util, CStruct procSlot, CStruct region) {
        Map<String, CStruct> structs = new LinkedHashMap<>();
        structs.put(DEVICE_MEMORY, memory);
        if (util != null) {
            structs.put(DEVICE_UTIL, util);
        }
        structs.put(PROC_SLOT, procSlot);
        structs.put(REGION, region);
        return new Definition(name, major, minor, structs);
    }
}
