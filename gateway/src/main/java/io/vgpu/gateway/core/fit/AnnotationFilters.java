package io.vgpu.gateway.core.fit;

import io.vgpu.state.codec.DeviceCordon;
import io.vgpu.state.codec.HamiAnnotations;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The device selectors a pod sets through its annotations (spec §6.4), parsed once per pod so Fit can
 * test thousands of devices without re-reading the annotations. Immutable and thread-safe.
 *
 * <ul>
 *   <li>{@code nvidia.com/use-gputype} / {@code nouse-gputype}: comma lists; a device type must contain
 *       (case-insensitive substring) some item / none of the items. Items are trimmed, empty items are
 *       ignored, an empty or blank value means "no constraint" ({@code A10} matches {@code NVIDIA A100}).</li>
 *   <li>{@code nvidia.com/use-gpuuuid} / {@code nouse-gpuuuid}: comma lists; the device UUID must equal
 *       some trimmed item / none. Empty or blank value means "no constraint".</li>
 *   <li>{@code nvidia.com/vgpu-mode}: when present, the device mode must be a substring of the value.</li>
 *   <li>{@code nvidia.com/numa-bind}: Go {@code strconv.ParseBool}; a parse error means "not enabled".</li>
 * </ul>
 */
public final class AnnotationFilters {

    /** Filters of a pod without any selector annotation. */
    public static final AnnotationFilters NONE = of(Map.of());

    /** Upper-cased, trimmed, non-empty items; null when there is no constraint. */
    private final String[] useTypes;
    private final String[] noUseTypes;
    /** Trimmed items (empties kept: they can only match an empty UUID); null when there is no constraint. */
    private final String[] useUuids;
    private final String[] noUseUuids;
    /** The {@code nvidia.com/vgpu-mode} value, or null when absent. */
    private final String vgpuMode;
    private final boolean numaBind;

    private AnnotationFilters(Map<String, String> annotations) {
        useTypes = typeItems(annotations.get(HamiAnnotations.USE_GPU_TYPE));
        noUseTypes = typeItems(annotations.get(HamiAnnotations.NOUSE_GPU_TYPE));
        useUuids = uuidItems(annotations.get(HamiAnnotations.USE_GPU_UUID));
        noUseUuids = uuidItems(annotations.get(HamiAnnotations.NOUSE_GPU_UUID));
        vgpuMode = annotations.get(HamiAnnotations.VGPU_MODE);
        numaBind = numaBindEnabled(annotations.get(HamiAnnotations.NUMA_BIND));
    }

    /** Parses the selectors of a pod; null annotations mean none. */
    public static AnnotationFilters of(Map<String, String> podAnnotations) {
        return new AnnotationFilters(podAnnotations == null ? Map.of() : podAnnotations);
    }

    /** HAMi's {@code CheckType}: is a card of this model allowed by use/nouse-gputype? */
    public boolean allowsType(String deviceType) {
        if (useTypes == null && noUseTypes == null) {
            return true;
        }
        String upper = GoText.toUpper(deviceType);
        if (useTypes != null && !containsAny(upper, useTypes)) {
            return false;
        }
        return noUseTypes == null || !containsAny(upper, noUseTypes);
    }

    /** HAMi's {@code CheckUUID}: is this card allowed by use/nouse-gpuuuid? */
    public boolean allowsUuid(String deviceId) {
        if (useUuids != null && !equalsAny(deviceId, useUuids)) {
            return false;
        }
        return noUseUuids == null || !equalsAny(deviceId, noUseUuids);
    }

    /** The {@code nvidia.com/vgpu-mode} rule: absent, or its value contains the device mode. */
    public boolean allowsMode(String deviceMode) {
        return vgpuMode == null || vgpuMode.contains(deviceMode);
    }

    /** True when the pod carries {@code nvidia.com/vgpu-mode} and that value does not allow MIG (spec §9.6). */
    public boolean excludesMig() {
        return vgpuMode != null && !vgpuMode.contains("mig");
    }

    /** Whether {@code nvidia.com/numa-bind} parses (Go bool) to true. */
    public boolean numaBind() {
        return numaBind;
    }

    /** {@code nvidia.com/numa-bind} rule for a raw value: Go {@code strconv.ParseBool}, null or invalid = false. */
    public static boolean numaBindEnabled(String value) {
        return Boolean.TRUE.equals(GoText.parseBool(value));
    }

    /**
     * The UUIDs listed in a node's {@code hami.io/device-cordon} value: comma-separated, trimmed,
     * empties skipped. Null or blank means none.
     */
    static Set<String> cordonedUuids(String value) {
        return DeviceCordon.uuids(value);
    }

    /**
     * Value equality over the parsed selectors: two pods whose filters are equal get the same answer from every
     * method of this class for every device (the verdict cache keys demand shapes on it).
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof AnnotationFilters f && numaBind == f.numaBind && Objects.equals(vgpuMode, f.vgpuMode)
                && Arrays.equals(useTypes, f.useTypes) && Arrays.equals(noUseTypes, f.noUseTypes)
                && Arrays.equals(useUuids, f.useUuids) && Arrays.equals(noUseUuids, f.noUseUuids);
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(vgpuMode, numaBind);
        h = 31 * h + Arrays.hashCode(useTypes);
        h = 31 * h + Arrays.hashCode(noUseTypes);
        h = 31 * h + Arrays.hashCode(useUuids);
        return 31 * h + Arrays.hashCode(noUseUuids);
    }

    private static String[] typeItems(String value) {
        if (value == null || GoText.trimSpace(value).isEmpty()) {
            return null;
        }
        return Arrays.stream(value.split(",", -1)).map(GoText::trimSpace).filter(t -> !t.isEmpty())
                .map(GoText::toUpper).toArray(String[]::new);
    }

    private static String[] uuidItems(String value) {
        if (value == null || GoText.trimSpace(value).isEmpty()) {
            return null;
        }
        return Arrays.stream(value.split(",", -1)).map(GoText::trimSpace).toArray(String[]::new);
    }

    private static boolean containsAny(String upperType, String[] items) {
        for (String item : items) {
            if (upperType.contains(item)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equalsAny(String id, String[] items) {
        for (String item : items) {
            if (item.equals(id)) {
                return true;
            }
        }
        return false;
    }
}
