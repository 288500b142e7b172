package io.vgpu.deviceplugin.core.register;

import java.util.List;

/**
 * One element of {@code nodeconfig} in HAMi's per-node config ({@code /config/config.json}, spec §3.5).
 * A null field was absent; Go treats absent and zero alike for the merged values.
 *
 * @param name                         node name the entry applies to
 * @param operatingMode                {@code hami-core} or {@code mig}; null/"" = keep
 * @param deviceSplitCount             override, 0/null = keep
 * @param deviceMemoryScaling          override, 0/null = keep
 * @param deviceCoreScaling            override, 0/null = keep
 * @param preConfiguredDeviceMemory    override, 0/null = keep
 * @param libCudaLogLevel              override, ""/null = keep
 * @param enableNumaTopology           override, false/null = keep
 * @param filterUuids                  GPUs (by UUID) this node must not serve
 * @param filterIndices                GPUs (by NVML index) this node must not serve
 * @param enableGetPreferredAllocation the preferred-allocation flag (absent = false)
 */
public record NodeConfigEntry(String name, String operatingMode, Integer deviceSplitCount, Double deviceMemoryScaling,
                              Double deviceCoreScaling, Long preConfiguredDeviceMemory, String libCudaLogLevel,
                              Boolean enableNumaTopology, List<String> filterUuids, List<Integer> filterIndices,
                              Boolean enableGetPreferredAllocation) {

    /** Copies the filter lists; null means none. */
    public NodeConfigEntry {
        filterUuids = filterUuids == null ? List.of() : List.copyOf(filterUuids);
        filterIndices = filterIndices == null ? List.of() : List.copyOf(filterIndices);
    }
}
