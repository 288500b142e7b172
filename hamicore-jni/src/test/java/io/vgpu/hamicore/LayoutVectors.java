package io.vgpu.hamicore;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntBinaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vgpu.hamicore.RegionLoad.Loaded;
import io.vgpu.hamicore.RegionLoad.Rejected;

/**
 * Every part of {@code hamicore-layout/1}: struct sizes, alignments and field tables of every
 * layout era against {@link HamiCoreHeaders}; the absolute v1 offsets (formulas and gcc-checked
 * examples) against the offsets {@link RegionLayout} actually reads; HAMi's Go mirrors; how each
 * era's file is loaded; constants; platform types and the bytes {@code sem_init} writes.
 */
final class LayoutVectors {

    /** One named check; returns its problems (empty = pass). */
    interface Check {
        List<String> run() throws Exception;
    }

    /** Receives named checks. */
    interface Cases {
        void add(String id, Check check);

        void skip(String id, String reason);
    }

    /**
     * Go-mirror offsets that differ from C on purpose, per the vector file's own note. The check
     * asserts the difference is real and that this reader uses the C offset.
     */
    private static final Map<String, String> GO_MIRROR_QUIRKS = Map.of(
            "v0.sem([32]byte)", "Go types v0 ownerPid as uint32, so its sem lands at 12; C (and this reader) use 16");

    private static final Pattern PATH_SEGMENT = Pattern.compile("([a-z_]+)(?:\\[(\\d+|p|d)])?");

    private final Path scratch;

    LayoutVectors(Path scratch) {
        this.scratch = scratch;
    }

    void addCases(JsonNode doc, String file, Cases cases) {
        for (Map.Entry<String, JsonNode> e : doc.get("layouts").properties()) {
            addLayout(file + "#layouts." + e.getKey(), e.getKey(), e.getValue(), cases);
        }
        addAbsoluteOffsets(file + "#absolute_offsets_v1", doc.get("absolute_offsets_v1"), cases);
        addGoMirrors(file + "#hami_go_mirrors", doc.get("hami_go_mirrors"), cases);
        addConstants(file + "#constants", doc.get("constants"), cases);
        addPlatform(file + "#platform_types", doc.get("platform_types"), cases);
        cases.add(file + "#sem_t_glibc_x86_64", () -> semInitBytes(doc.get("sem_t_glibc_x86_64")));
        cases.add(file + "#cross_check", () -> crossCheck(doc.at("/measured_with/cross_check/results")));
    }

    // ---- layouts ----

    private static Optional<HamiCoreHeaders.Definition> definition(String name) {
        return HamiCoreHeaders.ALL.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    private void addLayout(String id, String name, JsonNode layout, Cases cases) {
        Optional<HamiCoreHeaders.Definition> ours = definition(name);
        if (ours.isEmpty()) {
            cases.add(id, () -> List.of("no layout definition named " + name));
            return;
        }
        HamiCoreHeaders.Definition d = ours.get();
        cases.add(id + ".header", () -> {
            List<String> p = new ArrayList<>();
            same(p, "major_version", nullableInt(layout.get("major_version")), d.major());
            same(p, "minor_version", nullableInt(layout.get("minor_version")), d.minor());
            same(p, "file_size (sizeof + 1)", layout.get("file_size").intValue(), d.fileSize());
            List<String> names = new ArrayList<>();
            layout.get("structs").fieldNames().forEachRemaining(names::add);
            same(p, "struct names", names, List.copyOf(d.structs().keySet()));
            return p;
        });
        for (Map.Entry<String, JsonNode> s : layout.get("structs").properties()) {
            addStruct(id + "." + s.getKey(), d.structs().get(s.getKey()), s.getValue(), cases);
        }
        cases.add(id + ".hami_go_reader", () -> loadsAsGoReaderSays(d, layout.get("hami_go_reader").asText()));
    }

    private static void addStruct(String id, CStruct ours, JsonNode struct, Cases cases) {
        cases.add(id, () -> {
            if (ours == null) {
                return List.of("no such struct in the definition");
            }
            List<String> p = new ArrayList<>();
            same(p, "sizeof", struct.get("sizeof").intValue(), ours.sizeof());
            same(p, "alignof", struct.get("alignof").intValue(), ours.alignof());
            List<String> names = new ArrayList<>();
            struct.get("fields").forEach(f -> names.add(f.get("field").asText()));
            same(p, "field order", names, ours.fields().stream().map(CStruct.Field::name).toList());
            return p;
        });
        for (JsonNode field : struct.get("fields")) {
            String name = field.get("field").asText();
            cases.add(id + "." + name, () -> {
                Optional<CStruct.Field> f = ours == null ? Optional.empty() : ours.find(name);
                if (f.isEmpty()) {
                    return List.of("no field " + name);
                }
                List<String> p = new ArrayList<>();
                same(p, "offset", field.get("offset").intValue(), f.get().offset());
                same(p, "size", field.get("size").intValue(), f.get().size());
                same(p, "ctype", field.get("ctype").asText(), f.get().type().name());
                same(p, "count", field.path("count").asInt(0), f.get().count());
                same(p, "stride", field.path("stride").asInt(0), f.get().stride());
                return p;
            });
        }
    }

    /**
     * A file of the era's size with magic and its version bytes goes through the loader. HAMi's Go
     * reader accepts the interim layout and misreads it; this reader rejects it on purpose
     * (region spec §1.4, §6.5, §7).
     */
    private List<String> loadsAsGoReaderSays(HamiCoreHeaders.Definition d, String goReader) throws IOException {
        byte[] image = new byte[d.fileSize()];
        ByteBuffer view = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        view.putInt(0, SharedRegion.MAGIC);
        if (d.major() != null) {
            view.putInt(d.region().offsetOf("major_version"), d.major());
            view.putInt(d.region().offsetOf("minor_version"), d.minor());
        }
        Path file = Files.createTempFile(scratch, d.name(), ".cache");
        Files.write(file, image);
        RegionLoad load = SharedRegions.openFile(file);
        if (goReader.equals("v1") || goReader.equals("v0")) {
            RegionLayout expected = goReader.equals("v1") ? RegionLayout.V1 : RegionLayout.V0;
            return load instanceof Loaded l && l.region().layout() == expected
                    ? List.of() : List.of("Go reads it as " + goReader + "; we got " + load);
        }
        if (goReader.startsWith("rejected")) {
            return load instanceof Rejected r && r.reason() == RegionLoad.Reason.UNKNOWN_LAYOUT
                    && r.message().contains("unknown cache file size")
                    ? List.of() : List.of("Go rejects it (" + goReader + "); we got " + load);
        }
        if (goReader.startsWith("v1 (accepted, wrong offsets)")) {
            return load instanceof Rejected r && r.reason() == RegionLoad.Reason.INTERIM_LAYOUT
                    ? List.of() : List.of("the interim layout must be rejected, not misread; we got " + load);
        }
        return List.of("unknown hami_go_reader value " + goReader);
    }

    // ---- absolute offsets ----

    private static void addAbsoluteOffsets(String id, JsonNode offsets, Cases cases) {
        for (Map.Entry<String, JsonNode> e : offsets.properties()) {
            if (e.getKey().equals("examples_checked_with_gcc_offsetof")) {
                for (Map.Entry<String, JsonNode> example : e.getValue().properties()) {
                    cases.add(id + ".examples." + example.getKey(),
                            () -> absolute(example.getKey(), example.getValue().intValue()));
                }
                continue;
            }
            cases.add(id + "." + e.getKey(), () -> formula(e.getKey(), e.getValue(), offsets));
        }
    }

    /** A formula such as {@code slot_base + 40 + 64*d} checked at corner and middle p, d. */
    private static List<String> formula(String key, JsonNode formula, JsonNode all) {
        List<String> p = new ArrayList<>();
        for (int slot : new int[] {0, 1, 7, 1023}) {
            for (int device : new int[] {0, 1, 9, 15}) {
                int expected = evaluate(formula, slot, device, all);
                String concrete = key.replace("[p]", "[" + slot + "]").replace("[d]", "[" + device + "]");
                p.addAll(absolute(concrete, expected));
            }
        }
        return p.stream().distinct().toList();
    }

    private static int evaluate(JsonNode formula, int slot, int device, JsonNode all) {
        if (formula.isIntegralNumber()) {
            return formula.intValue();
        }
        int sum = 0;
        for (String term : formula.asText().split("\\+")) {
            int product = 1;
            for (String factor : term.trim().split("\\*")) {
                String f = factor.trim();
                product *= switch (f) {
                    case "p" -> slot;
                    case "d" -> device;
                    case "slot_base" -> evaluate(all.get("slot_base[p]"), slot, device, all);
                    default -> Integer.parseInt(f);
                };
            }
            sum += product;
        }
        return sum;
    }

    /**
     * The offset RegionLayout.V1 reads for a concrete path like {@code procs[1].used[1].total}
     * ({@code slot_base[3]} means {@code procs[3]}), compared with {@code expected}.
     */
    static List<String> absolute(String path, int expected) {
        Integer actual = readerOffset(path.startsWith("slot_base") ? path.replace("slot_base", "procs") : path);
        if (actual == null) {
            return List.of("the reader has no offset for " + path);
        }
        return actual == expected ? List.of() : List.of(path + " is read at " + actual + ", expected " + expected);
    }

    /** Where {@link RegionLayout#V1} reads {@code path}; null when it does not read it. */
    private static Integer readerOffset(String path) {
        RegionLayout v1 = RegionLayout.V1;
        List<String> names = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (String segment : path.split("\\.")) {
            Matcher m = PATH_SEGMENT.matcher(segment);
            if (!m.matches()) {
                return null;
            }
            names.add(m.group(1));
            indexes.add(m.group(2) == null ? null : Integer.valueOf(m.group(2)));
        }
        String top = names.get(0);
        if (names.size() == 1) {
            Integer i = indexes.get(0);
            return switch (top) {
                case "uuids" -> i == null ? null : v1.uuidOffset(i);
                case "limit" -> i == null ? null : v1.limitOffset(i);
                case "sm_limit" -> i == null ? null : v1.smLimitOffset(i);
                case "procs" -> i == null ? null : v1.slotOffset(i);
                case "proc_num" -> v1.procNum;
                case "utilization_switch" -> v1.utilizationSwitch;
                case "recent_kernel" -> v1.recentKernel;
                case "priority" -> v1.priority;
                case "last_kernel_time" -> v1.lastKernelTime;
                case "sem_postinit" -> v1.semPostInit;
                case "sem" -> v1.sem;
                case "owner_pid" -> v1.ownerPid;
                case "device_num" -> v1.deviceNum;
                default -> null;
            };
        }
        if (!top.equals("procs") || indexes.get(0) == null) {
            return null;
        }
        int slot = indexes.get(0);
        String field = names.get(1);
        Integer device = indexes.get(1);
        if (names.size() == 2) {
            return switch (field) {
                case "pid" -> v1.slotOffset(slot) + v1.slotPid;
                case "hostpid" -> v1.slotOffset(slot) + v1.slotHostPid;
                case "status" -> v1.slotOffset(slot) + v1.slotStatus;
                case "seqlock" -> v1.slotOffset(slot) + v1.slotSeqlock;
                case "monitorused" -> device == null ? null : v1.monitorUsedOffset(slot, device);
                default -> null;
            };
        }
        if (device == null || names.size() != 3) {
            return null;
        }
        String member = names.get(2);
        IntBinaryOperator base = field.equals("used") ? v1::memoryOffset
                : field.equals("device_util") ? v1::utilOffset : null;
        if (base == null) {
            return null;
        }
        Integer within = switch (field + "." + member) {
            case "used.context_size" -> v1.memContext;
            case "used.module_size" -> v1.memModule;
            case "used.data_size" -> v1.memData;
            case "used.offset" -> v1.memOffset;
            case "used.total" -> v1.memTotal;
            case "device_util.dec_util" -> v1.utilDec;
            case "device_util.enc_util" -> v1.utilEnc;
            case "device_util.sm_util" -> v1.utilSm;
            default -> null;
        };
        return within == null ? null : base.applyAsInt(slot, device) + within;
    }

    // ---- Go mirrors ----

    private static void addGoMirrors(String id, JsonNode mirrors, Cases cases) {
        for (Map.Entry<String, JsonNode> mirror : mirrors.properties()) {
            String version = mirror.getKey();
            RegionLayout layout = version.equals("v1") ? RegionLayout.V1 : version.equals("v0") ? RegionLayout.V0 : null;
            cases.add(id + "." + version, () -> layout == null
                    ? List.of("unknown Go mirror " + version)
                    : goMirror(version, layout, mirror.getValue()));
        }
    }

    private static List<String> goMirror(String version, RegionLayout layout, JsonNode mirror) {
        List<String> p = new ArrayList<>();
        same(p, "sizeof", mirror.get("sizeof").intValue(), layout.structSize());
        for (Map.Entry<String, JsonNode> e : mirror.get("offsets").properties()) {
            Integer ours = regionField(layout, e.getKey().replaceAll("\\(.*\\)", ""));
            int go = e.getValue().intValue();
            String quirk = GO_MIRROR_QUIRKS.get(version + "." + e.getKey());
            if (ours == null) {
                p.add("no C field for Go field " + e.getKey());
            } else if (quirk != null) {
                if (ours == go) {
                    p.add("documented quirk no longer differs: " + quirk);
                }
            } else if (ours != go) {
                p.add("Go " + e.getKey() + " at " + go + ", this reader at " + ours);
            }
        }
        JsonNode slot = mirror.get("slot");
        same(p, "slot sizeof", slot.get("sizeof").intValue(), layout.slotSize);
        for (Map.Entry<String, JsonNode> e : slot.properties()) {
            Integer ours = switch (e.getKey()) {
                case "sizeof" -> layout.slotSize;
                case "used" -> layout.slotUsed;
                case "monitorused" -> layout.slotMonitorUsed;
                case "deviceUtil" -> layout.slotDeviceUtil;
                case "status" -> layout.slotStatus;
                case "unused[3]" -> layout.slotSeqlock; // v1.2 put seqlock where Go still sees unused[3]
                default -> null;
            };
            if (ours == null) {
                p.add("no C field for Go slot field " + e.getKey());
            } else {
                same(p, "slot." + e.getKey(), e.getValue().intValue(), ours);
            }
        }
        return p;
    }

    private static Integer regionField(RegionLayout l, String goName) {
        return switch (goName) {
            case "initializedFlag" -> l.initializedFlag;
            case "majorVersion" -> l.majorVersion;
            case "minorVersion" -> l.minorVersion;
            case "smInitFlag" -> l.smInitFlag;
            case "ownerPid" -> l.ownerPid;
            case "sem" -> l.sem;
            case "num" -> l.deviceNum;
            case "uuids" -> l.uuids;
            case "limit" -> l.limit;
            case "smLimit" -> l.smLimit;
            case "procs" -> l.procs;
            case "procnum" -> l.procNum;
            case "utilizationSwitch" -> l.utilizationSwitch;
            case "recentKernel" -> l.recentKernel;
            case "priority" -> l.priority;
            case "lastKernelTime" -> l.lastKernelTime;
            case "unused[4]" -> l.semPostInit; // v1.2 put sem_postinit where Go still sees unused[4]
            default -> null;
        };
    }

    // ---- constants, platform, sem_t ----

    private void addConstants(String id, JsonNode constants, Cases cases) {
        for (Map.Entry<String, JsonNode> e : constants.properties()) {
            JsonNode v = e.getValue();
            String key = id + "." + e.getKey();
            switch (e.getKey()) {
                case "magic" -> cases.add(key, () -> sameList("magic", v.intValue(), SharedRegion.MAGIC));
                case "magic_hex" -> {
                    // HAMi-core #defines the magic in decimal (19920718 = 0x012FF74E); the vector's hex
                    // spelling 0x012FFA4E is 19921486, a typo also in the spec's §1.1 table
                    if (Integer.decode(v.asText()) == SharedRegion.MAGIC) {
                        cases.add(key, List::of);
                    } else if (constants.path("magic").intValue() == SharedRegion.MAGIC) {
                        cases.skip(key, "erratum: " + v.asText() + " is " + Integer.decode(v.asText())
                                + ", not the decimal magic 19920718 (0x012FF74E) that HAMi-core defines and 'magic' states");
                    } else {
                        cases.add(key, () -> List.of("magic_hex " + v.asText() + " matches neither magic nor 19920718"));
                    }
                }
                case "CUDA_DEVICE_MAX_COUNT" -> cases.add(key, () -> sameList(e.getKey(), v.intValue(), SharedRegion.MAX_DEVICES));
                case "SHARED_REGION_MAX_PROCESS_NUM" ->
                        cases.add(key, () -> sameList(e.getKey(), v.intValue(), SharedRegion.MAX_PROCESSES));
                case "uuid_len" -> cases.add(key, () -> sameList(e.getKey(), v.intValue(), SharedRegion.UUID_BYTES));
                case "default_path" -> cases.add(key, () -> sameList(e.getKey(), v.asText(), SharedRegions.DEFAULT_CACHE_PATH));
                case "env_path" -> cases.add(key, () -> sameList(e.getKey(), v.asText(), SharedRegions.CACHE_PATH_ENV));
                case "MAJOR_VERSION", "MINOR_VERSION" -> cases.add(key, () -> createdVersion(e.getKey(), v.intValue()));
                case "file_size_rule" -> cases.add(key, () -> HamiCoreHeaders.ALL.stream()
                        .filter(d -> d.fileSize() != d.region().sizeof() + 1)
                        .map(d -> d.name() + " file size is not sizeof + 1").toList());
                case "mmap_length_libvgpu" -> cases.add(key, this::mappedLength);
                case "init_lock" -> cases.add(key, this::createdFileLength);
                case "FACTOR" -> cases.skip(key, "token-bucket scale of libvgpu's SM limiter; this library does not limit");
                case "mmap_length_hami_monitor" -> cases.skip(key,
                        "HAMi maps the whole file; this reader maps exactly sizeof(shared_region_t) (bytes past it are a lock byte)");
                default -> cases.add(key, () -> List.of("unknown constant " + e.getKey()));
            }
        }
    }

    private List<String> createdVersion(String name, int expected) throws IOException {
        SharedRegion region = SharedRegions.create(scratch.resolve("created-" + name + ".cache"), RegionInit.defaults());
        int actual = name.equals("MAJOR_VERSION") ? region.majorVersion().orElse(-1) : region.minorVersion().orElse(-1);
        return sameList(name + " written by the creator", expected, actual);
    }

    /** libvgpu maps sizeof(shared_region_t) bytes; so does this reader, whatever the file's length. */
    private List<String> mappedLength() throws IOException {
        Path file = scratch.resolve("long.cache");
        byte[] image = new byte[RegionLayout.V1.fileSize() + 4096];
        ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).putInt(0, SharedRegion.MAGIC).putInt(4, 1).putInt(8, 2);
        Files.write(file, image);
        RegionLoad load = SharedRegions.openFile(file);
        if (!(load instanceof Loaded l) || !(l.region() instanceof MappedSharedRegion m)) {
            return List.of("a v1 file with a tail beyond the struct did not load: " + load);
        }
        return sameList("mapped length", RegionLayout.V1.structSize(), m.buffer().capacity());
    }

    /** The creator locks [0, sizeof) while initialising and leaves a sizeof + 1 byte file. */
    private List<String> createdFileLength() throws IOException {
        Path file = scratch.resolve("locked.cache");
        SharedRegions.create(file, RegionInit.defaults());
        return sameList("created file size", (long) RegionLayout.V1.fileSize(), Files.size(file));
    }

    private static void addPlatform(String id, JsonNode platform, Cases cases) {
        Map<String, Integer> index = Map.of("sizeof_sem_t", 0, "alignof_sem_t", 1, "sizeof_size_t", 2,
                "atomic_uint64_lock_free", 3, "atomic_int32_lock_free", 4);
        for (Map.Entry<String, JsonNode> e : platform.properties()) {
            cases.add(id + "." + e.getKey(), () -> {
                NativeLibrary.load();
                int[] facts = NativeBridge.platformFacts();
                if (e.getKey().equals("endianness")) {
                    return sameList("endianness", e.getValue().asText(), facts[5] == 1 ? "little" : "big");
                }
                Integer at = index.get(e.getKey());
                return at == null ? List.of("unknown platform fact " + e.getKey())
                        : sameList(e.getKey() + " (gcc, via JNI)", e.getValue().intValue(), facts[at]);
            });
        }
    }

    /** sem_init(pshared=1, 1) on zeroed memory writes exactly the documented bytes. */
    private static List<String> semInitBytes(JsonNode semT) {
        String hex = semT.get("after_sem_init_pshared_1_value_1_hex").asText();
        byte[] head = HexFormat.of().parseHex(hex.substring(0, hex.indexOf('(')).replace(" ", "").trim());
        MappedSharedRegion region = (MappedSharedRegion) SharedRegions.inMemory(RegionLayout.V1);
        RegionSemaphore.initialise(region, RegionLayout.V1.sem);
        byte[] actual = new byte[CType.SEM_T.size()];
        region.buffer().get(RegionLayout.V1.sem, actual);
        byte[] expected = new byte[CType.SEM_T.size()];
        System.arraycopy(head, 0, expected, 0, head.length);
        return sameList("sem bytes", HexFormat.of().formatHex(expected), HexFormat.of().formatHex(actual));
    }

    /** The cross-check table printed from the unmodified headers: sizes and offsets per era. */
    private static List<String> crossCheck(JsonNode results) {
        List<String> p = new ArrayList<>();
        for (Map.Entry<String, JsonNode> era : results.properties()) {
            String label = era.getKey();
            String name = label.contains("interim") ? "interim-1.1-seqlock" : label.contains("pre-v0") ? "pre-v0"
                    : label.contains("(v0)") ? "v0" : label.contains("v1.2") ? "v1.2" : "v1.1";
            HamiCoreHeaders.Definition d = definition(name).orElseThrow();
            for (Map.Entry<String, JsonNode> e : era.getValue().properties()) {
                int actual = switch (e.getKey()) {
                    case "shared_region_t" -> d.region().sizeof();
                    case "shrreg_proc_slot_t" -> d.struct(HamiCoreHeaders.PROC_SLOT).sizeof();
                    case "slot.status" -> d.struct(HamiCoreHeaders.PROC_SLOT).offsetOf("status");
                    default -> d.region().offsetOf(e.getKey());
                };
                same(p, label + " " + e.getKey(), e.getValue().intValue(), actual);
            }
        }
        return p;
    }

    // ---- helpers ----

    private static Integer nullableInt(JsonNode node) {
        return node == null || node.isNull() ? null : node.intValue();
    }

    private static void same(List<String> problems, String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }

    private static List<String> sameList(String what, Object expected, Object actual) {
        List<String> p = new ArrayList<>();
        same(p, what, expected, actual);
        return p;
    }
}
