package io.vgpu.deviceplugin.core.register;

import io.vgpu.deviceplugin.core.gpu.GpuDetails;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.state.codec.DeviceCordon;
import io.vgpu.state.dra.GpuHealth;
import io.vgpu.state.dra.SliceGpu;
import io.vgpu.state.dra.SliceInput;
import io.vgpu.state.dra.SliceSettings;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node agent's view of its GPUs as the pure slice builder's input: the same scan, health, node
 * settings (split count, scalings, filterdevices, operating mode) and cordon annotation device-plugin mode
 * uses, so a node offers the same cards in both modes. Pure.
 */
public final class SliceInputs {

    private SliceInputs() {
    }

    /**
     * @param node     this node
     * @param served   the GPUs of the last scan that this agent serves
     * @param health   DRA health by UUID (missing: the scan's own health)
     * @param settings the node's effective settings
     * @param cordon   the node's {@code hami.io/device-cordon} value, or null
     * @param taints   whether the API server keeps device taints
     */
    public static SliceInput of(String node, List<GpuFacts> served, Map<String, GpuHealth> health, NodeSettings settings,
                                String cordon, SliceInput.TaintSupport taints) {
        List<SliceGpu> gpus = served.stream().map(g -> new SliceGpu(g.uuid(), g.index(), g.details().minorNumber(),
                g.name(), g.memoryTotalBytes(), g.numa(), g.details().pciBusId(), g.details().architecture(),
                g.details().brand(), g.details().cudaComputeCapability(),
                health.getOrDefault(g.uuid(), g.healthy() ? GpuHealth.HEALTHY : GpuHealth.UNHEALTHY))).toList();
        Optional<GpuDetails> any = served.stream().map(GpuFacts::details).findFirst();
        NvidiaSettings n = settings.nvidia();
        SliceSettings sliceSettings = new SliceSettings(n.deviceSplitCount(), n.deviceMemoryScaling(),
                n.deviceCoreScaling(), n.preConfiguredDeviceMemory(), settings.operatingMode(),
                settings.filter().uuids(), settings.filter().indices());
        return new SliceInput(node, gpus, any.flatMap(GpuDetails::driverVersion),
                any.flatMap(GpuDetails::cudaDriverVersion), sliceSettings, DeviceCordon.uuids(cordon), taints);
    }
}
