package io.vgpu.state.dra;

import java.util.List;
import java.util.Objects;

/**
 * The node settings a slice follows, as device-plugin mode applies them (HAMi's device config with the
 * node's per-node overrides).
 *
 * @param splitCount          {@code deviceSplitCount} N: ordinary shares per GPU; slots default ⌊1000/N⌋
 * @param memoryScaling       {@code deviceMemoryScaling}: published memory = MiB × scaling, truncated
 * @param coreScaling         {@code deviceCoreScaling}: published cores = ⌊100 × scaling⌋
 * @param preConfiguredMiB    {@code preConfiguredDeviceMemory}: MiB of a GPU without memory information; 0 = leave it out
 * @param operatingMode       the {@code mode} attribute ({@code hami-core} when the node config sets none)
 * @param filterUuids         {@code filterdevices.uuid}: GPUs left out
 * @param filterIndices       {@code filterdevices.index}: GPUs left out
 */
public record SliceSettings(int splitCount, double memoryScaling, double coreScaling, long preConfiguredMiB,
                            String operatingMode, List<String> filterUuids, List<Integer> filterIndices) {

    /** HAMi's operating mode, the only one DRA mode serves. */
    public static final String MODE_HAMI_CORE = "hami-core";
    /** HAMi's dynamic MIG mode ({@code operatingmode: mig}): device-plugin mode only, until DRA MIG is designed. */
    public static final String MODE_MIG = "mig";
    /** Why a GPU of a node in {@link #MODE_MIG} is not offered in DRA mode. */
    public static final String MIG_NOT_OFFERED = "operatingmode mig (dynamic MIG) is served in device-plugin mode only: "
            + "DRA mode does not offer MIG GPUs until DRA MIG is designed (serve this node in device-plugin mode, "
            + "or drop operatingmode mig from its node config)";

    /** Copies the lists; an empty mode is {@link #MODE_HAMI_CORE}. */
    public SliceSettings {
        if (splitCount < 1) {
            throw new IllegalArgumentException("deviceSplitCount must be at least 1, got " + splitCount);
        }
        operatingMode = operatingMode == null || operatingMode.isEmpty() ? MODE_HAMI_CORE : operatingMode;
        filterUuids = List.copyOf(Objects.requireNonNull(filterUuids, "filterUuids"));
        filterIndices = List.copyOf(Objects.requireNonNull(filterIndices, "filterIndices"));
    }

    /** The HAMi chart's defaults: split count 10, no scaling, nothing filtered. */
    public static SliceSettings defaults() {
        return new SliceSettings(10, 1.0, 1.0, 0, MODE_HAMI_CORE, List.of(), List.of());
    }

    /** These settings with split count {@code n}. */
    public SliceSettings withSplitCount(int n) {
        return new SliceSettings(n, memoryScaling, coreScaling, preConfiguredMiB, operatingMode, filterUuids, filterIndices);
    }

    /** True when filterdevices leaves the GPU out. */
    public boolean filters(String uuid, int index) {
        return filterUuids.contains(uuid) || filterIndices.contains(index);
    }
}
