package io.vgpu.deviceplugin.devices;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigDeviceFacts;
import io.vgpu.hamicore.GpuInstance;
import io.vgpu.hamicore.GpuInstanceProfile;
import io.vgpu.hamicore.MigDevice;
import io.vgpu.hamicore.Nvml;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The MIG devices that exist on the node (made by an operator or NVIDIA's MIG Manager), for the static
 * MIG strategies: each MIG-enabled GPU's MIG devices with the name of their GPU-instance profile. Only
 * reads. BLOCKS (JNI): call on a worker.
 */
public final class StaticMigDiscovery {

    private StaticMigDiscovery() {
    }

    /**
     * What was found.
     *
     * @param migEnabled the GPUs in MIG mode
     * @param devices    their MIG devices, GPU by GPU in NVML's MIG index order
     */
    public record Found(Set<String> migEnabled, List<MigDeviceFacts> devices) {

        /** Copies. */
        public Found {
            migEnabled = Set.copyOf(migEnabled);
            devices = List.copyOf(devices);
        }
    }

    /** @param gpus the served GPUs, in index order */
    public static Found read(Nvml nvml, List<GpuFacts> gpus) {
        Set<String> enabled = new LinkedHashSet<>();
        List<MigDeviceFacts> devices = new ArrayList<>();
        for (GpuFacts g : gpus) {
            if (!nvml.migMode(g.index()).enabled()) {
                continue;
            }
            enabled.add(g.uuid());
            Map<Integer, String> profileById = nvml.gpuInstanceProfiles(g.index()).stream()
                    .collect(Collectors.toMap(GpuInstanceProfile::id, GpuInstanceProfile::name, (a, b) -> a));
            Map<Integer, Integer> profileOfInstance = nvml.gpuInstances(g.index()).stream()
                    .collect(Collectors.toMap(GpuInstance::id, GpuInstance::profileId, (a, b) -> a));
            for (MigDevice d : nvml.migDevices(g.index())) {
                String profile = profileById.getOrDefault(profileOfInstance.getOrDefault(d.gpuInstanceId(), -1), "unknown");
                devices.add(new MigDeviceFacts(d.uuid(), g.uuid(), g.index(), profile, g.numa()));
            }
        }
        return new Found(enabled, devices);
    }
}
