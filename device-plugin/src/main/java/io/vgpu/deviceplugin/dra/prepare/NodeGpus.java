package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.register.NodeRegister;
import io.vgpu.deviceplugin.core.register.NodeSettings;
import io.vgpu.deviceplugin.core.register.RegisterSettings;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.SliceSettings;
import io.vgpu.state.model.GpuDevice;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPUs of this node that DRA mode offers, by device name, with the capacities the guard checks.
 * The node's settings apply exactly as in device-plugin mode: {@code filterdevices} leaves GPUs out,
 * memory is the register's ({@code devmem}: whole MiB, times the memory scaling, or
 * {@code preConfiguredDeviceMemory} where NVML cannot tell), cores the register's {@code devcore}.
 *
 * <p>A GPU whose minor number is unknown is <b>not offered</b>: its device name {@code gpu-<minor>}
 * and its device node {@code /dev/nvidia<minor>} cannot be known, and naming it otherwise (by index)
 * would not be stable. It is listed in {@link #leftOut()} with the reason, like a GPU without memory
 * information. Nor is any GPU of a node in {@code operatingmode: mig} (dynamic MIG): DRA mode does not offer
 * MIG GPUs until DRA MIG is designed, as the slice builder leaves them out. Pure; immutable.
 */
public final class NodeGpus {

    private final Map<String, NodeGpu> byName;
    private final List<String> leftOut;

    private NodeGpus(Map<String, NodeGpu> byName, List<String> leftOut) {
        this.byName = byName;
        this.leftOut = leftOut;
    }

    /** The GPUs of {@code scan} that DRA mode offers under {@code node}'s settings. */
    public static NodeGpus of(List<GpuFacts> scan, NodeSettings node) {
        List<GpuFacts> kept = scan.stream().filter(g -> !node.filter().excludes(g.uuid(), g.index())).toList();
        NodeRegister.Result register = NodeRegister.build(kept, Map.of(), RegisterSettings.of(node));
        Map<String, GpuDevice> registered = new LinkedHashMap<>();
        register.devices().forEach(d -> registered.put(d.id(), d));
        Map<String, NodeGpu> byName = new LinkedHashMap<>();
        List<String> leftOut = new ArrayList<>();
        boolean mig = SliceSettings.MODE_MIG.equals(node.operatingMode());
        for (GpuFacts g : kept) {
            GpuDevice d = registered.get(g.uuid());
            if (mig) {
                leftOut.add(g.uuid() + ": " + SliceSettings.MIG_NOT_OFFERED);
            } else if (d == null) {
                leftOut.add(g.uuid() + ": NVML reports no memory and preConfiguredDeviceMemory is 0");
            } else if (g.details().minorNumber().isEmpty()) {
                leftOut.add(g.uuid() + ": the minor number (/dev/nvidia<minor>, the device name gpu-<minor>) is unknown");
            } else {
                int minor = g.details().minorNumber().getAsInt();
                byName.put(DraNames.deviceName(minor), new NodeGpu(DraNames.deviceName(minor), g.uuid(), minor, g.index(),
                        g.details().pciBusId(), d.devmem() * Mib.BYTES, d.devcore(), NodeGpu.SLOTS));
            }
        }
        return new NodeGpus(Map.copyOf(byName), List.copyOf(leftOut));
    }

    /** The GPU named {@code deviceName}. */
    public Optional<NodeGpu> byName(String deviceName) {
        return Optional.ofNullable(byName.get(deviceName));
    }

    /** Every GPU offered, sorted by device name. */
    public Collection<NodeGpu> all() {
        return byName.values().stream().sorted((a, b) -> Integer.compare(a.minor(), b.minor())).toList();
    }

    /** The minor numbers of every GPU offered, ascending (what {@code DriverLibraries} looks for in a static spec). */
    public List<Integer> minors() {
        return all().stream().map(NodeGpu::minor).toList();
    }

    /** GPUs of the scan that are not offered, each with the reason ({@code <uuid>: <why>}). */
    public List<String> leftOut() {
        return leftOut;
    }
}
