package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.advertise.DeviceFilter;
import io.vgpu.deviceplugin.core.allocate.AllocateSettings;
import java.util.List;

/**
 * HAMi's per-node override rules ({@code readFromConfigFile}, spec §3.5): for every {@code nodeconfig}
 * entry whose name equals the node name, in order, the values are merged over the device config with
 * mergo "override" semantics, where ONLY NON-ZERO values override (0, 0.0, false and "" are ignored);
 * {@code filterdevices} replaces the filter when either list is non-empty; a non-empty
 * {@code operatingmode} replaces the mode (default {@code hami-core}); {@code enablegetpreferredallocation}
 * is assigned as is. Pure.
 */
public final class NodeOverrides {

    private NodeOverrides() {
    }

    /**
     * @param base    the device config's {@code nvidia:} values
     * @param entries the {@code nodeconfig} list (empty without a node config file)
     * @param node    this node's name
     */
    public static NodeSettings apply(NvidiaSettings base, List<NodeConfigEntry> entries, String node) {
        NvidiaSettings merged = base;
        String mode = AllocateSettings.MODE_HAMI_CORE;
        boolean preferred = false;
        DeviceFilter filter = DeviceFilter.none();
        for (NodeConfigEntry e : entries) {
            if (!node.equals(e.name())) {
                continue;
            }
            merged = merge(merged, e);
            if (!e.filterUuids().isEmpty() || !e.filterIndices().isEmpty()) {
                filter = new DeviceFilter(e.filterUuids(), e.filterIndices());
            }
            if (e.operatingMode() != null && !e.operatingMode().isEmpty()) {
                mode = e.operatingMode();
            }
            preferred = Boolean.TRUE.equals(e.enableGetPreferredAllocation());
        }
        return new NodeSettings(merged, mode, preferred, filter);
    }

    /**
     * HAMi's result when the per-node file cannot be read: the device config as is, no filter, no
     * preferred allocation, and the operating mode EMPTY (so the register annotation carries no
     * {@code mode}), exactly as {@code readFromConfigFile} returns it.
     */
    public static NodeSettings withoutNodeConfig(NvidiaSettings base) {
        return new NodeSettings(base, "", false, DeviceFilter.none());
    }

    private static NvidiaSettings merge(NvidiaSettings s, NodeConfigEntry e) {
        return new NvidiaSettings(
                s.resourceCountName(),
                nonZero(e.deviceSplitCount()) ? e.deviceSplitCount() : s.deviceSplitCount(),
                nonZero(e.deviceMemoryScaling()) ? e.deviceMemoryScaling() : s.deviceMemoryScaling(),
                nonZero(e.deviceCoreScaling()) ? e.deviceCoreScaling() : s.deviceCoreScaling(),
                nonZero(e.preConfiguredDeviceMemory()) ? e.preConfiguredDeviceMemory() : s.preConfiguredDeviceMemory(),
                e.libCudaLogLevel() != null && !e.libCudaLogLevel().isEmpty() ? e.libCudaLogLevel() : s.libCudaLogLevel(),
                Boolean.TRUE.equals(e.enableNumaTopology()) || s.enableNumaTopology(),
                s.disableCoreLimit());
    }

    private static boolean nonZero(Number n) {
        return n != null && n.doubleValue() != 0;
    }
}
