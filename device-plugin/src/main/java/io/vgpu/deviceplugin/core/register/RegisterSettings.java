package io.vgpu.deviceplugin.core.register;

/**
 * The knobs of the node registration (spec §3.3).
 *
 * @param splitCount          {@code deviceSplitCount} → {@code count}
 * @param memoryScaling       {@code deviceMemoryScaling}
 * @param coreScaling         {@code deviceCoreScaling}
 * @param operatingMode       {@code mode} ({@code hami-core}; "" is omitted from the JSON)
 * @param preConfiguredMemory MiB for GPUs without memory information, 0 = skip those GPUs
 */
public record RegisterSettings(int splitCount, double memoryScaling, double coreScaling, String operatingMode,
                               long preConfiguredMemory) {

    /** Null mode becomes "". */
    public RegisterSettings {
        operatingMode = operatingMode == null ? "" : operatingMode;
    }

    /** The register settings of a node's effective configuration. */
    public static RegisterSettings of(NodeSettings node) {
        NvidiaSettings n = node.nvidia();
        return new RegisterSettings(n.deviceSplitCount(), n.deviceMemoryScaling(), n.deviceCoreScaling(),
                node.operatingMode(), n.preConfiguredDeviceMemory());
    }
}
