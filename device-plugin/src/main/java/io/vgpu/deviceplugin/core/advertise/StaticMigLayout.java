package io.vgpu.deviceplugin.core.advertise;
import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigDeviceFacts;
import io.vgpu.deviceplugin.core.mig.MigStrategy;
import io.vgpu.deviceplugin.core.outcome.Outcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which kubelet devices a static MIG strategy makes of the node's GPUs (upstream NVIDIA rules, spec §5.2):
 *
 * <ul>
 *   <li>{@link MigStrategy#NONE}: every GPU, as always;</li>
 *   <li>{@link MigStrategy#SINGLE}: the MIG devices of every GPU as {@code nvidia.com/gpu} devices; refused
 *       unless every served GPU is MIG-enabled with MIG devices of one profile;</li>
 *   <li>{@link MigStrategy#MIXED}: GPUs without MIG stay {@code nvidia.com/gpu}; the MIG devices of the
 *       others become one resource per profile, {@code nvidia.com/mig-<profile>}.</li>
 * </ul>
 *
 * MIG devices are advertised as they are (their UUID is the device ID, the GPU's NUMA node always), and
 * {@code Allocate} answers them through the pass-through branch. Pure.
 *
 * @param gpus       the GPUs the main resource still splits, by UUID (all of them for {@code none})
 * @param mainMig    the MIG devices of the main resource ({@code single})
 * @param byResource the MIG devices of each {@code nvidia.com/mig-<profile>} resource ({@code mixed})
 */
public record StaticMigLayout(Set<String> gpus, List<MigDeviceFacts> mainMig, Map<String, List<MigDeviceFacts>> byResource) {

    /** Copies. */
    public StaticMigLayout {
        gpus = Set.copyOf(gpus);
        mainMig = List.copyOf(mainMig);
        byResource = Map.copyOf(byResource);
    }

    /**
     * @param strategy   the strategy
     * @param gpus       the served GPUs, in index order
     * @param migEnabled UUIDs of the served GPUs in MIG mode
     * @param devices    the MIG devices of those GPUs
     * @param vendor     the resource prefix, {@code nvidia.com}
     */
    public static Outcome<StaticMigLayout> of(MigStrategy strategy, List<GpuFacts> gpus, Set<String> migEnabled,
                                              List<MigDeviceFacts> devices, String vendor) {
        List<String> all = gpus.stream().map(GpuFacts::uuid).toList();
        switch (strategy) {
            case NONE:
                return Outcome.ok(new StaticMigLayout(Set.copyOf(all), List.of(), Map.of()));
            case SINGLE:
                List<String> plain = all.stream().filter(u -> !migEnabled.contains(u)).toList();
                if (!plain.isEmpty() || devices.isEmpty()) {
                    return Outcome.failed("mig-strategy single needs every GPU in MIG mode with MIG devices; "
                            + (plain.isEmpty() ? "no MIG device exists" : "not in MIG mode: " + plain));
                }
                Set<String> profiles = new TreeSet<>(devices.stream().map(MigDeviceFacts::profile).toList());
                if (profiles.size() > 1) {
                    return Outcome.failed("mig-strategy single needs one MIG profile on every GPU, found " + profiles
                            + "; use mixed");
                }
                return Outcome.ok(new StaticMigLayout(Set.of(), devices, Map.of()));
            default:
                Map<String, List<MigDeviceFacts>> byResource = new TreeMap<>();
                for (MigDeviceFacts d : devices) {
                    byResource.computeIfAbsent(vendor + "/mig-" + d.profile(), k -> new ArrayList<>()).add(d);
                }
                return Outcome.ok(new StaticMigLayout(
                        Set.copyOf(all.stream().filter(u -> !migEnabled.contains(u)).toList()), List.of(),
                        new LinkedHashMap<>(byResource)));
        }
    }

    /** The advertised form of MIG devices: as they are, with their GPU's NUMA node. */
    public static List<PhysicalDevice> physical(List<MigDeviceFacts> devices) {
        return devices.stream().map(d -> new PhysicalDevice(d.uuid(), d.parentIndex(), true, d.numa())).toList();
    }
}
