package io.vgpu.state.codec;

import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.StringPool;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod devices string of HAMi v2.10 (spec §6.2), carried by both {@code hami.io/vgpu-devices-to-allocate}
 * and {@code hami.io/vgpu-devices-allocated}: per container (init containers first, then app containers,
 * by position) every device as {@code <uuid>,<type>,<usedmem>,<usedcores>:}, each container closed by
 * {@code ;}. Example, containers [none, one GPU]: {@code ;GPU-a,NVIDIA,1000,30:;}.
 *
 * <p>Decoding splits on {@code ;}, so the closing {@code ;} yields one extra, empty entry at the end;
 * consumers index entries by container position and ignore the tail. Within an entry, pieces without a
 * comma are ignored, a piece needs at least 4 comma fields (more are ignored) and the two numbers must be
 * decimal int32. Decoders never throw: bad text (truncated, missing fields, non-numeric, out of int32
 * range, null) is a {@link Decoded.Err}. Every method is pure and thread-safe; decoded GPU UUIDs and vendor words
 * are the {@link StringPool}'s instances (equal strings, shared).
 */
public final class PodDevicesCodec {

    /** HAMi's error for a device piece with fewer than 4 fields. */
    public static final String MISSING_FIELDS = "pod annotation format error, missing fields, do not use nodeName in task spec";
    /** Error when no container entry is left to allocate. */
    public static final String NOTHING_TO_ALLOCATE = "no pending device allocation found";

    private static final String DEVICE_END = ":";
    private static final String CONTAINER_END = ";";

    private PodDevicesCodec() {
    }

    /** One container's devices: {@code <uuid>,<type>,<usedmem>,<usedcores>:} each; no devices encode to "". */
    public static String encodeContainer(List<ContainerDevice> devices) {
        StringBuilder out = new StringBuilder();
        for (ContainerDevice d : devices) {
            out.append(d.uuid()).append(',').append(d.type()).append(',')
                    .append(d.usedmem()).append(',').append(d.usedcores()).append(DEVICE_END);
        }
        return out.toString();
    }

    /**
     * Decodes one container entry. "" is no device. The decoded entries carry idx 0: the index is not on
     * the wire.
     */
    public static Decoded<List<ContainerDevice>> decodeContainer(String entry) {
        if (entry == null) {
            return Decoded.err("container devices entry is absent");
        }
        List<ContainerDevice> out = new ArrayList<>();
        for (String piece : entry.split(DEVICE_END, -1)) {
            if (!piece.contains(",")) {
                continue;
            }
            String[] fields = piece.split(",", -1);
            if (fields.length < 4) {
                return Decoded.err(MISSING_FIELDS);
            }
            Decoded<Long> mem = GoStrconv.parseInt(fields[2], 32);
            if (!mem.isOk()) {
                return Decoded.err("invalid memory field: " + mem.error());
            }
            Decoded<Long> cores = GoStrconv.parseInt(fields[3], 32);
            if (!cores.isOk()) {
                return Decoded.err("invalid core field: " + cores.error());
            }
            // the UUID and vendor word recur in every pod on the card: the pool's instances (each replica's pod
            // tracker keeps a decoded allocation of every pod, issue 14's heap)
            out.add(new ContainerDevice(0, StringPool.canonical(fields[0]), StringPool.canonical(fields[1]),
                    mem.value().intValue(), cores.value().intValue()));
        }
        return Decoded.ok(List.copyOf(out));
    }

    /** Every container in order, each closed by {@code ;}. No container at all encodes to "". */
    public static String encode(List<List<ContainerDevice>> containers) {
        StringBuilder out = new StringBuilder();
        for (List<ContainerDevice> container : containers) {
            out.append(encodeContainer(container)).append(CONTAINER_END);
        }
        return out.toString();
    }

    /**
     * Decodes one vendor's pod devices string into one list per {@code ;}-separated entry, INCLUDING the
     * empty tail after the last {@code ;} ("" decodes to one empty entry). Any bad entry fails the whole
     * string, as an undecodable annotation makes HAMi ignore the pod.
     */
    public static Decoded<List<List<ContainerDevice>>> decode(String annotation) {
        if (annotation == null) {
            return Decoded.err("pod devices annotation is absent");
        }
        List<List<ContainerDevice>> out = new ArrayList<>();
        for (String entry : annotation.split(CONTAINER_END, -1)) {
            Decoded<List<ContainerDevice>> container = decodeContainer(entry);
            if (!container.isOk()) {
                return Decoded.err(container.error());
            }
            out.add(container.value());
        }
        return Decoded.ok(List.copyOf(out));
    }

    /**
     * HAMi {@code DecodePodDevices}: for every vendor in {@code vendorKeys} (vendor word to annotation key)
     * whose key is present in {@code annotations}, that vendor's decoded entries; vendors whose key is
     * absent get no entry at all. Vendor order follows {@code vendorKeys}.
     */
    public static Decoded<Map<String, List<List<ContainerDevice>>>> decodeAnnotations(
            Map<String, String> annotations, Map<String, String> vendorKeys) {
        Map<String, List<List<ContainerDevice>>> out = new LinkedHashMap<>();
        if (annotations == null || annotations.isEmpty()) {
            return Decoded.ok(out);
        }
        for (Map.Entry<String, String> vendor : vendorKeys.entrySet()) {
            String value = annotations.get(vendor.getValue());
            if (value == null) {
                continue;
            }
            Decoded<List<List<ContainerDevice>>> decoded = decode(value);
            if (!decoded.isOk()) {
                return Decoded.err(decoded.error());
            }
            out.put(vendor.getKey(), decoded.value());
        }
        return Decoded.ok(out);
    }

    /**
     * The annotations /filter writes for the NVIDIA part of a decision (HAMi NVIDIA {@code PatchAnnotations}):
     * {@code hami.io/vgpu-devices-to-allocate} and {@code hami.io/vgpu-devices-allocated}, both the same
     * encoded string; nothing when there is no container entry.
     *
     * @param nvidiaContainers one entry per container, init containers first (empty entries included)
     */
    public static Map<String, String> filterAnnotations(List<List<ContainerDevice>> nvidiaContainers) {
        if (nvidiaContainers == null || nvidiaContainers.isEmpty()) {
            return Map.of();
        }
        String value = encode(nvidiaContainers);
        Map<String, String> out = new LinkedHashMap<>();
        out.put(HamiAnnotations.DEVICES_TO_ALLOCATE, value);
        out.put(HamiAnnotations.DEVICES_ALLOCATED, value);
        return out;
    }

    /**
     * One device-plugin {@code Allocate} step over the to-allocate string: takes the first entry that
     * lists devices and blanks it. The empty tail produced by the closing {@code ;} is not a container and
     * is not written back, so the string keeps one entry per container
     * ({@code ;GPU-a,NVIDIA,1000,30:;} becomes {@code ;;}).
     *
     * @return the step, or an error when the string does not decode or no entry lists devices
     */
    public static Decoded<AllocationStep> popNext(String toAllocate) {
        return decode(toAllocate).flatMap(decoded -> {
            List<List<ContainerDevice>> entries = new ArrayList<>(decoded);
            if (toAllocate.endsWith(CONTAINER_END)) {
                entries.remove(entries.size() - 1);
            }
            for (int i = 0; i < entries.size(); i++) {
                List<ContainerDevice> taken = entries.get(i);
                if (!taken.isEmpty()) {
                    entries.set(i, List.of());
                    return Decoded.ok(new AllocationStep(i, taken, encode(entries)));
                }
            }
            return Decoded.err(NOTHING_TO_ALLOCATE);
        });
    }

    /**
     * Whether the device plugin may mark the pod {@code hami.io/bind-phase=success}: the to-allocate
     * string no longer contains any registered vendor word (plain substring test, as HAMi does).
     */
    public static boolean allocationComplete(String toAllocate, Collection<String> vendorWords) {
        if (toAllocate == null) {
            return true;
        }
        return vendorWords.stream().noneMatch(toAllocate::contains);
    }

    /** {@link #allocationComplete(String, Collection)} for the only implemented vendor, NVIDIA. */
    public static boolean allocationComplete(String toAllocate) {
        return allocationComplete(toAllocate, List.of(Vendor.NVIDIA));
    }
}
